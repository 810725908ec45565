import type { CrmIntegration, NotificationSettingsView, WebhookType } from '@app/contracts';
// The zod-free door: the contracts barrel carries zod, which the dashboard does not load.
import { NOTIFICATION_TOASTS } from '@app/contracts/rules';
import { Alert, Button } from '@app/ui';
import { useId, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { failureMessage, isApiError } from '../../store/api';
import { useGetMeQuery } from '../auth/authApi';
import { CrmTab } from './CrmTab';
import { GeneralTab } from './GeneralTab';
import { lionDeskResultOf } from './LionDeskConnection';
import { useTestWebhookMutation, useUpdateNotificationSettingsMutation } from './notificationsApi';
import {
  fieldErrorsOf,
  formFromSettings,
  settingsPayload,
  tabOfFirstError,
  testableTypes,
  type SettingsField,
  type SettingsForm,
  type SettingsTab,
} from './settingsForm';
import type { CardToast } from '../card-toast';
import { WebhooksTab } from './WebhooksTab';
import { ZapierTab } from './ZapierTab';
import styles from './LeadNotifications.module.css';

const TABS: { id: SettingsTab; label: string }[] = [
  { id: 'general', label: 'General' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'zapier', label: 'Zapier' },
  { id: 'crm', label: 'CRM' },
];

const IMPERSONATION_REASON = 'An admin viewing as this agent can read the integrations but cannot change them (URLs, CRM, secrets and keys).';

/**
 * The notification settings in four tabs (General, Webhooks, Zapier, CRM; arrow keys move between them):
 * one form, saved at once; a failed save opens the tab of its first field message.
 */
export function SettingsEditor({
  agentId,
  saved,
  integrations,
  toast,
}: {
  agentId: string;
  saved: NotificationSettingsView;
  integrations: readonly CrmIntegration[] | undefined;
  toast: (t: CardToast) => void;
}) {
  const ids = useId();
  const { data: me } = useGetMeQuery();
  const canChangeIntegrations = !me?.impersonatedBy;
  const [form, setForm] = useState<SettingsForm>(() => formFromSettings(saved));
  const [errors, setErrors] = useState<Partial<Record<SettingsField, string>>>({});
  // Back from LionDesk's page (/dashboard?liondesk=…): the CRM tab, where the result is shown.
  const [tab, setTab] = useState<SettingsTab>(() => (typeof window !== 'undefined' && lionDeskResultOf(window.location.search) ? 'crm' : 'general'));
  const [generatedSecret, setGeneratedSecret] = useState<string | null>(null);
  const [update, { isLoading: saving }] = useUpdateNotificationSettingsMutation();
  const [testWebhook, { isLoading: testing, originalArgs: testArgs }] = useTestWebhookMutation();

  const set = <K extends SettingsField>(key: K, value: SettingsForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };
  const testable = testableTypes(saved, form, integrations);
  const readOnly = !canChangeIntegrations && <Alert tone="info">{IMPERSONATION_REASON}</Alert>;
  const id = (name: string) => `${ids}-${name}`;
  const tabProps = { id, form, set, errors, saved, integrations, canChange: canChangeIntegrations, readOnly };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const result = await update({ agentId, body: settingsPayload(form, { canChangeIntegrations, integrations }) }).unwrap();
      setForm(formFromSettings(result));
      setErrors({});
      setGeneratedSecret(result.generatedWebhookSecret ?? null);
      toast({ ...NOTIFICATION_TOASTS.saved, tone: 'success' });
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      const errorTab = tabOfFirstError(fields);
      if (errorTab) setTab(errorTab);
      // The server's message says why (e.g. an admin viewing as the agent changing a secret).
      toast({ title: NOTIFICATION_TOASTS.saveFailed, description: failureMessage(error) ?? undefined, tone: 'danger' });
    }
  };

  const runTest = async (webhookType: WebhookType) => {
    try {
      const result = await testWebhook({ agentId, webhookType }).unwrap();
      toast({ title: NOTIFICATION_TOASTS.testOk, description: result.message, tone: 'success' });
    } catch (error) {
      const detail = isApiError(error) ? error.serverMessage : null;
      toast({
        title: NOTIFICATION_TOASTS.testFailedTitle,
        description: detail ? `${NOTIFICATION_TOASTS.testFailed(webhookType)}. ${detail}` : NOTIFICATION_TOASTS.testFailed(webhookType),
        tone: 'danger',
      });
    }
  };

  const testButton = (type: WebhookType, label: string) =>
    testable[type] ? (
      <Button variant="secondary" onClick={() => void runTest(type)} disabled={testing} busy={testing && testArgs?.webhookType === type}>
        {label}
      </Button>
    ) : null;

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const next = event.key === 'ArrowRight' ? i + 1 : event.key === 'ArrowLeft' ? i - 1 : null;
    if (next === null) return;
    event.preventDefault();
    const target = TABS[(next + TABS.length) % TABS.length]!;
    setTab(target.id);
    document.getElementById(id(`tab-${target.id}`))?.focus();
  };

  const panel = (tabId: SettingsTab, children: ReactNode) => (
    <div role="tabpanel" id={id(`panel-${tabId}`)} aria-labelledby={id(`tab-${tabId}`)} hidden={tab !== tabId} className={styles.tabPanel}>
      {children}
    </div>
  );

  return (
    <form onSubmit={(e) => void save(e)} noValidate className={styles.form}>
      <div role="tablist" aria-label="Notification settings" className={styles.tabs} onKeyDown={onTabKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={id(`tab-${t.id}`)}
            aria-selected={tab === t.id}
            aria-controls={id(`panel-${t.id}`)}
            tabIndex={tab === t.id ? 0 : -1}
            className={tab === t.id ? `${styles.tab} ${styles.tabActive}` : styles.tab}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>

      {panel('general', <GeneralTab id={id} form={form} set={set} />)}

      {panel('webhooks', <WebhooksTab {...tabProps} testButton={testButton('custom', 'Test Webhook')} generatedSecret={generatedSecret} />)}

      {panel('zapier', <ZapierTab {...tabProps} testButton={testButton('zapier', 'Test Zapier')} />)}

      {panel('crm', <CrmTab {...tabProps} testButton={testButton('crm', 'Test CRM')} agentId={agentId} toast={toast} />)}

      <div className={styles.saveRow}>
        <Button type="submit" busy={saving} disabled={saving}>
          {saving ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}
