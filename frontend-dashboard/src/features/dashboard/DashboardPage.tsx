import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '@app/ui';
import { AgentDashboard } from '../agent-dashboard/AgentDashboard';
import { AgentSelection } from '../agent-selection/AgentSelection';
import { useGetAgentsQuery } from '../agents/agentsApi';
import { ME_STALE_SECONDS, useGetMeQuery } from '../auth/authApi';
import { DashboardLayout } from '../dashboard-layout';
import styles from './DashboardPage.module.css';

/**
 * Which agent the dashboard shows (spec 001 "Dashboard"):
 * `?agent={id}` loads that agent; otherwise the signed-in user's own agent is selected; 'Select Agent' lists the
 * agent this browser is signed in as. The dashboard is the signed-in agent's (DESIGN §3): nobody signed in, /login.
 */
export function DashboardPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const me = useGetMeQuery(undefined, { refetchOnMountOrArgChange: ME_STALE_SECONDS });
  const agents = useGetAgentsQuery();

  const agentParam = params.get('agent');
  const choosingAgent = (location.state as { chooseAgent?: boolean } | null)?.chooseAgent === true;
  const selectedAgentId = agentParam || (!choosingAgent && me.data ? String(me.data.id) : null);

  const unauthenticated = me.isSuccess && me.data === null;

  useEffect(() => {
    if (unauthenticated) navigate('/login', { replace: true });
  }, [unauthenticated, navigate]);

  if (selectedAgentId && !unauthenticated) return <AgentDashboard agentId={selectedAgentId} />;

  if (me.isLoading || agents.isLoading || unauthenticated) {
    return (
      <DashboardLayout>
        <Spinner />
      </DashboardLayout>
    );
  }

  if (me.isError || agents.isError || !agents.data) {
    return (
      <DashboardLayout>
        <p className={styles.error} role="alert">
          Error loading agent data
        </p>
      </DashboardLayout>
    );
  }

  return (
    <DashboardLayout>
      <AgentSelection agents={agents.data} onSelect={(id) => navigate({ search: `?agent=${encodeURIComponent(id)}` })} />
    </DashboardLayout>
  );
}
