import { Alert } from '@app/ui';
import styles from './LeadNotifications.module.css';
import { SecretField, UrlField } from './IntegrationFields';
import { secretsEndedByUrlChange } from './settingsForm';
import type { SettingsTabProps } from './settingsTabs';

/** Webhooks: the URL, its signing secret, the secret generated on save (shown once) and a test send. */
export function WebhooksTab(tab: SettingsTabProps & { generatedSecret: string | null }) {
  const { form, saved, integrations, readOnly, testButton, generatedSecret } = tab;
  const ended = secretsEndedByUrlChange(saved, form, integrations);
  return (
    <>
      {saved.webhookDisabled && (
        <Alert tone="warning">Your webhook answered 410 Gone, so deliveries there stopped. Save the URL again to turn it back on.</Alert>
      )}
      {readOnly}
      <UrlField
        tab={tab}
        name="webhookUrl"
        label="Webhook URL"
        hint="An HTTPS endpoint that receives each lead as signed JSON (Standard Webhooks)."
        placeholder="https://example.com/webhooks/leads"
      />
      <SecretField
        tab={tab}
        name="webhookSecret"
        clear="clearWebhookSecret"
        label="Webhook secret"
        isSet={saved.hasWebhookSecret && !ended.webhookSecret}
        emptyHint={
          ended.webhookSecret
            ? 'A new URL does not keep the stored secret: type it again, or leave it empty and we generate a new one (shown once).'
            : 'Optional. Leave it empty and we generate one when you save a webhook URL (every webhook is signed).'
        }
        clearHint="The secret will be removed when you save. A webhook that stays set then gets a new generated secret, shown once."
      />
      {generatedSecret && (
        <Alert tone="success" title="Your new webhook secret (shown only once)">
          <p className={styles.secretNote}>Copy it now into your receiver to verify signatures. It will not be shown again.</p>
          <code className={styles.secret} data-testid="generated-webhook-secret">
            {generatedSecret}
          </code>
        </Alert>
      )}
      <div className={styles.actions}>{testButton}</div>
    </>
  );
}
