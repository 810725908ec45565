import { Alert, Button, Spinner } from '@app/ui';
import { useGetAgentQuery } from '../agents/agentsApi';
import { useGetMeQuery, ME_STALE_SECONDS } from '../auth/authApi';
import { DashboardLayout } from '../dashboard/DashboardLayout';
import { LeadNotificationsCard } from '../lead-notifications';
import { AutopilotCard } from '../autopilot/AutopilotCard';
import { useCardToast } from '../lead-notifications/useCardToast';
import { HelpIcon } from '../help';
import { BackToSelection } from './BackToSelection';
import { ContactCard } from './ContactCard';
import { DeliveryCard, LeadsCard, ProgressCard, PropertyCard, StatTiles } from './MetricsCards';
import {
  useEndImpersonationMutation,
  useGetAgentCampaignsQuery,
  useGetAgentLeadsInfiniteQuery,
  useGetDailyDeliveryQuery,
  useGetFacebookMetricsQuery,
  useLogoutMutation,
} from './dashboardApi';
import styles from './AgentDashboard.module.css';
import cards from './Cards.module.css';

/** A full navigation: the host's cached auth/me and every other cache start over. */
const goTo = (path: string) => window.location.assign(path);

/** One agent's dashboard (spec 001 §2): the cards in the spec's order, logout, and help per topic. */
export function AgentDashboard({ agentId }: { agentId: string }) {
  const { data: agent, isLoading, isError } = useGetAgentQuery(agentId);
  const me = useGetMeQuery(undefined, { refetchOnMountOrArgChange: ME_STALE_SECONDS });
  const campaigns = useGetAgentCampaignsQuery(agentId);
  const metrics = useGetFacebookMetricsQuery(agentId);
  const daily = useGetDailyDeliveryQuery(agentId);
  const leads = useGetAgentLeadsInfiniteQuery(agentId);
  const [logout, logoutState] = useLogoutMutation();
  const [endImpersonation, endState] = useEndImpersonationMutation();
  const { show, view: toastView } = useCardToast();

  if (isLoading) {
    return (
      <DashboardLayout>
        <Spinner label="Loading agent data..." />
      </DashboardLayout>
    );
  }

  if (isError || !agent) {
    return (
      <DashboardLayout>
        <div className={styles.error} role="alert">
          <p className={styles.errorText}>Error loading agent data</p>
          <BackToSelection />
        </div>
      </DashboardLayout>
    );
  }

  const loggedIn = !!me.data;
  async function onLogout() {
    try {
      await logout().unwrap();
      show({ title: 'Logged out', description: 'You have been logged out successfully', tone: 'success' });
      setTimeout(() => goTo('/login'), 600);
    } catch {
      show({ title: 'Logout failed', description: 'There was an error logging out', tone: 'danger' });
    }
  }

  return (
    <DashboardLayout welcome={`Welcome, ${agent.name}`}>
      {me.data?.impersonatedBy === 'admin' && (
        <Alert tone="warning">
          <span className={cards.banner}>
            <span>Viewing as {agent.name} (admin)</span>
            <Button variant="secondary" busy={endState.isLoading} onClick={() => void endImpersonation().unwrap().finally(() => goTo('/admin'))}>
              End viewing
            </Button>
          </span>
        </Alert>
      )}
      <nav aria-label="Dashboard" className={styles.nav}>
        <BackToSelection />
        {loggedIn && (
          <Button variant="secondary" busy={logoutState.isLoading} onClick={() => void onLogout()}>
            Logout
          </Button>
        )}
      </nav>
      <div className={cards.grid}>
        <ContactCard agent={agent} toast={show} />
        {campaigns.data ? <PropertyCard campaigns={campaigns.data} /> : <Spinner label="Loading campaigns..." />}
        <div className={cards.wide}>
          <LeadNotificationsCard
            agentId={agentId}
            help={
              <p aria-label="Help topics" role="group" className={styles.helpTopics}>
                <span>Need a hand?</span>
                <HelpIcon topic="custom-webhook" label="Help: Custom Webhook Setup" />
                <HelpIcon topic="zapier-setup" label="Help: Zapier Integration" />
                <HelpIcon topic="crm-integration" label="Help: CRM Integration" />
                <HelpIcon topic="webhook-testing" label="Help: Testing Webhooks" />
              </p>
            }
          />
        </div>
        <div className={cards.wide}>
          <AutopilotCard agentId={agentId} />
        </div>
        {metrics.data ? <ProgressCard metrics={metrics.data} /> : <Spinner label="Loading metrics..." />}
        <div className={cards.wide}>
          {leads.data ? (
            <LeadsCard
              leads={leads.data.pages.flatMap((p) => p.leads)}
              total={leads.data.pages[0]?.total ?? 0}
              more={leads.hasNextPage ? { loading: leads.isFetchingNextPage, load: () => void leads.fetchNextPage() } : undefined}
            />
          ) : (
            <Spinner label="Loading leads..." />
          )}
        </div>
        {metrics.data && <StatTiles metrics={metrics.data} />}
        {daily.data && campaigns.data && (
          <div className={cards.wide}>
            <DeliveryCard daily={daily.data} campaigns={campaigns.data} />
          </div>
        )}
      </div>
      {(campaigns.isError || metrics.isError || daily.isError || leads.isError) && <Alert tone="danger">Error loading agent data</Alert>}
      {toastView}
    </DashboardLayout>
  );
}
