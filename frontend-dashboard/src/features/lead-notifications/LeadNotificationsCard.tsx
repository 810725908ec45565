// The zod-free door: the contracts barrel carries zod, which the dashboard does not load.
import { CRM_INTEGRATIONS, NOTIFICATION_TOASTS } from '@app/contracts/rules';
import { Alert, Button, Panel, Spinner } from '@app/ui';
import { useEffect, type ReactNode } from 'react';
import { DeliveryLog } from './DeliveryLog';
import { useGetCrmIntegrationsQuery, useGetNotificationSettingsQuery } from './notificationsApi';
import { SettingsEditor } from './SettingsEditor';
import { useCardToast } from '../card-toast';
import styles from './LeadNotifications.module.css';

/** The dashboard's Lead Notifications card: settings in four tabs, test sends, and the delivery log. */
export function LeadNotificationsCard({ agentId, help }: { agentId: string; /** Help per topic (the help assistant's icons). */ help?: ReactNode }) {
  const settings = useGetNotificationSettingsQuery(agentId);
  const crm = useGetCrmIntegrationsQuery();
  const { show, view: toastView } = useCardToast();

  useEffect(() => {
    if (settings.isError) show({ title: NOTIFICATION_TOASTS.loadFailed, tone: 'danger' });
  }, [settings.isError, show]);
  useEffect(() => {
    // Spec §8: CRM list load errors are only logged; the CRM tab then offers the CRMs this build knows, so a
    // saved one (say Other CRM) is still shown as itself, never as "No CRM".
    if (crm.error) console.warn('Could not load the CRM integration list', crm.error);
  }, [crm.error]);

  let body: ReactNode;
  if (settings.isLoading) body = <Spinner label="Loading notification settings..." />;
  else if (settings.isError || !settings.data) {
    body = (
      <Alert tone="danger" title={NOTIFICATION_TOASTS.loadFailed}>
        <Button variant="secondary" onClick={() => void settings.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  } else {
    body = <SettingsEditor agentId={agentId} saved={settings.data} integrations={crm.data ?? (crm.isError ? CRM_INTEGRATIONS : undefined)} toast={show} />;
  }

  return (
    <Panel title="Lead Notifications" className={styles.card} aria-label="Lead Notifications" data-testid="lead-notifications-card">
      <p className={styles.intro}>Choose where each new lead is sent the moment a buyer contacts you.</p>
      {help}
      {body}
      <DeliveryLog agentId={agentId} toast={show} />
      {toastView}
    </Panel>
  );
}
