import type { CrmIntegration } from '@app/contracts';
import { Alert, SelectField } from '@app/ui';
import styles from './LeadNotifications.module.css';
import { LionDeskConnection } from './LionDeskConnection';
import { SecretField, UrlField } from './IntegrationFields';
import { crmFieldsShown, secretsEndedByUrlChange, type SettingsForm } from './settingsForm';
import type { SettingsTabProps } from './settingsTabs';
import type { CardToast } from '../card-toast';

/** CRM: which CRM, then what it needs (a URL, an API key, or LionDesk's connection), and a test send. */
export function CrmTab(tab: SettingsTabProps & { agentId: string; toast: (t: CardToast) => void }) {
  const { id, form, set, errors, saved, integrations, canChange, readOnly, testButton, agentId, toast } = tab;
  const shown = crmFieldsShown(form, integrations);
  const ended = secretsEndedByUrlChange(saved, form, integrations);
  return (
    <>
      {saved.crmDisabled && <Alert tone="warning">Your CRM answered 410 Gone, so deliveries there stopped. Save the CRM settings again to turn them back on.</Alert>}
      {readOnly}
      <SelectField
        id={id('crmType')}
        label="CRM"
        hint="Leads are sent to your CRM as they arrive."
        error={errors.crmType}
        disabled={!canChange}
        value={form.crmType}
        onChange={(e) => set('crmType', e.target.value as SettingsForm['crmType'])}
      >
        <option value="">No CRM</option>
        {(integrations ?? []).map((c) => (
          <option key={c.type} value={c.type}>
            {c.name}
          </option>
        ))}
      </SelectField>
      {shown.url && (
        <UrlField
          tab={tab}
          name="crmWebhookUrl"
          label="CRM webhook URL"
          hint="An HTTPS endpoint of your CRM that accepts JSON. Shown shortened once saved."
          placeholder="https://crm.example.com/api/leads"
        />
      )}
      {shown.apiKey && (
        <SecretField
          tab={tab}
          name="crmApiKey"
          clear="clearCrmApiKey"
          label="CRM API key"
          isSet={saved.hasCrmApiKey && saved.crmType === form.crmType && !ended.crmApiKey}
          emptyHint={
            ended.crmApiKey
              ? 'A new URL does not keep the stored API key: type it again to send it there.'
              : crmKeyHint(integrations?.find((c) => c.type === form.crmType))
          }
          clearHint="The API key will be removed when you save."
        />
      )}
      {shown.connect && <LionDeskConnection agentId={agentId} canChange={canChange} toast={toast} />}
      <div className={styles.actions}>{testButton}</div>
    </>
  );
}

/** What the key field asks for: each CRM names its own credential (HubSpot: a private app access token). */
function crmKeyHint(crm: CrmIntegration | undefined): string {
  if (!crm?.requiresApiKey) return 'Optional: sent as a Bearer token. Stored encrypted; never shown again.';
  return crm.apiKeyLabel === 'API key'
    ? 'Required for this CRM. Stored encrypted; never shown again.'
    : `Required for this CRM: your ${crm.name} ${crm.apiKeyLabel.toLowerCase()}. Stored encrypted; never shown again.`;
}
