import { Alert } from '@app/ui';
import { UrlField } from './IntegrationFields';
import styles from './LeadNotifications.module.css';
import type { SettingsTabProps } from './settingsTabs';

/** Zapier: the Zap's Catch Hook URL (a password of sorts: shown shortened once saved) and a test send. */
export function ZapierTab(tab: SettingsTabProps) {
  const { form, saved, readOnly, testButton } = tab;
  return (
    <>
      {saved.zapierDisabled && <Alert tone="warning">Your Zapier hook answered 410 Gone, so deliveries there stopped. Save the URL again to turn it back on.</Alert>}
      {readOnly}
      <UrlField
        tab={tab}
        name="zapierWebhookUrl"
        label="Zapier webhook URL"
        hint={
          saved.zapierWebhookUrl && form.zapierWebhookUrl === saved.zapierWebhookUrl
            ? 'Your saved Catch Hook URL, shortened: it works like a password, so only its start is shown. Paste a new one to replace it.'
            : "Your Zap's “Catch Hook” URL (https://hooks.zapier.com/…). It works like a password: keep it private."
        }
        placeholder="https://hooks.zapier.com/hooks/catch/…"
      />
      <div className={styles.actions}>{testButton}</div>
    </>
  );
}
