import { Alert, Button, Spinner } from '@app/ui';
import { useGetAgentQuery } from '../agents/agentsApi';
import { useGetMeQuery, ME_STALE_SECONDS } from '../auth/authApi';
import { DashboardLayout } from '../dashboard-layout';
import { LeadNotificationsCard, useGetNotificationSettingsQuery } from '../lead-notifications';
import { AutopilotCard } from '../autopilot/AutopilotCard';
import { ApiKeysCard, TextAlertsCard } from '../integrations';
import { CreditsCard, ReportsCard } from '../proof';
import { useCardToast } from '../card-toast';
import { HelpIcon } from '../help';
import { BackToSelection } from './BackToSelection';
import { EmailNotices } from './EmailNotices';
import { ContactCard } from './ContactCard';
import { CardError, DeliveryCard, LeadsCard, ProgressCard, PropertyCard, StatTiles } from './MetricsCards';
import { HeldLeads } from './HeldLeads';
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
  const settings = useGetNotificationSettingsQuery(agentId);
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
      <EmailNotices email={agent.email} pendingEmail={agent.pendingEmail ?? null} waitingEmails={settings.data?.waitingEmails ?? 0} />
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
        {campaigns.isError ? (
          <CardError title="Property" label="Property" what="your campaigns" onRetry={() => void campaigns.refetch()} retrying={campaigns.isFetching} />
        ) : campaigns.data ? (
          <PropertyCard campaigns={campaigns.data} />
        ) : (
          <Spinner label="Loading campaigns..." />
        )}
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
        <TextAlertsCard agentId={agentId} />
        <ApiKeysCard agentId={agentId} />
        {metrics.isError ? (
          <CardError title="Campaign Progress" label="Campaign Progress" what="your campaign metrics" onRetry={() => void metrics.refetch()} retrying={metrics.isFetching} />
        ) : metrics.isSuccess ? (
          // null (no metrics yet) is an answer: the spec's default progress.
          <ProgressCard metrics={metrics.data ?? null} />
        ) : (
          <Spinner label="Loading metrics..." />
        )}
        <div className={cards.wide}>
          {leads.isError ? (
            <CardError title="Your Leads" label="Your Leads" what="your leads" onRetry={() => void leads.refetch()} retrying={leads.isFetching} />
          ) : leads.data ? (
            <LeadsCard
              leads={leads.data.pages.flatMap((p) => p.leads)}
              total={leads.data.pages[0]?.total ?? 0}
              more={leads.hasNextPage ? { loading: leads.isFetchingNextPage, load: () => void leads.fetchNextPage() } : undefined}
              review={(leads.data.pages[0]?.held ?? 0) > 0 ? <HeldLeads agentId={agentId} count={leads.data.pages[0].held} toast={show} /> : undefined}
            />
          ) : (
            <Spinner label="Loading leads..." />
          )}
        </div>
        {metrics.isError ? (
          <CardError label="Total Clicks, Total Reach and Engagements" what="clicks, reach and engagements" onRetry={() => void metrics.refetch()} retrying={metrics.isFetching} />
        ) : (
          metrics.isSuccess && <StatTiles metrics={metrics.data ?? null} />
        )}
        {daily.isError ? (
          <div className={cards.wide}>
            <CardError title="Daily delivery" label="Daily delivery" what="the daily delivery" onRetry={() => void daily.refetch()} retrying={daily.isFetching} />
          </div>
        ) : (
          daily.data &&
          campaigns.data && (
            <div className={cards.wide}>
              <DeliveryCard daily={daily.data} campaigns={campaigns.data} />
            </div>
          )
        )}
        <div className={cards.wide}>
          <ReportsCard agentId={agentId} toast={show} />
        </div>
        <CreditsCard agentId={agentId} toast={show} />
      </div>
      {toastView}
    </DashboardLayout>
  );
}

