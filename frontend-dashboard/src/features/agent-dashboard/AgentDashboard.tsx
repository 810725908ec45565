import { Spinner } from '@app/ui';
import { useGetAgentQuery } from '../agents/agentsApi';
import { DashboardLayout } from '../dashboard/DashboardLayout';
import { LeadNotificationsCard } from '../lead-notifications';
import { BackToSelection } from './BackToSelection';
import { HelpIcon } from '../help';
import styles from './AgentDashboard.module.css';

/**
 * One agent's dashboard. This issue builds its entry state only: the contact card, property,
 * campaign progress, leads, metrics and notification settings come in later issues.
 */
export function AgentDashboard({ agentId }: { agentId: string }) {
  const { data: agent, isLoading, isError } = useGetAgentQuery(agentId);

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

  return (
    <DashboardLayout welcome={`Welcome, ${agent.name}`}>
      <nav aria-label="Dashboard" className={styles.nav}>
        <BackToSelection />
      </nav>
      {/* Spec §2 order: Contact Card, Property card, then Lead Notifications. */}
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
    </DashboardLayout>
  );
}
