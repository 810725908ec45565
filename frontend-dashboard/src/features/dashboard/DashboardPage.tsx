import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '@app/ui';
import { AgentDashboard } from '../agent-dashboard/AgentDashboard';
import { AgentSelection } from '../agent-selection/AgentSelection';
import { useGetAgentsQuery } from '../agents/agentsApi';
import { ME_STALE_SECONDS, useGetMeQuery } from '../auth/authApi';
import { DashboardLayout } from './DashboardLayout';
import styles from './DashboardPage.module.css';

/**
 * Which agent the dashboard shows (spec 001 "Dashboard"):
 * `?agent={id}` loads that agent; otherwise the logged-in user's own agent is selected;
 * otherwise the 'Select Agent' picker. No user, no ?agent= and no accessible agents: /login.
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

  const unauthenticated =
    me.isSuccess && me.data === null && !agentParam && agents.isSuccess && agents.data.length === 0;

  useEffect(() => {
    if (unauthenticated) navigate('/login', { replace: true });
  }, [unauthenticated, navigate]);

  if (selectedAgentId) return <AgentDashboard agentId={selectedAgentId} />;

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
