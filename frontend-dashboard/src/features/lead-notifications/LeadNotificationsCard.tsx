import type { CrmIntegration, NotificationSettingsView, WebhookType } from '@app/contracts';
// The zod-free door: the contracts barrel carries zod, which the dashboard does not load.
import { CRM_INTEGRATIONS, INSTANT_NOTIFICATIONS_HINT, NOTIFICATION_TOASTS } from '@app/contracts/rules';
import { Alert, Badge, Button, Field, Panel, Spinner, fieldStyles } from '@app/ui';
import { useEffect, useId, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { failureMessage, isApiError } from '../../store/api';
import { useGetMeQuery } from '../auth/authApi';
import { DeliveryLog } from './DeliveryLog';
import { LionDeskConnection, lionDeskResultOf } from './LionDeskConnection';
import {
  useGetCrmIntegrationsQuery,
  useGetNotificationSettingsQuery,
  useTestWebhookMutation,
  useUpdateNotificationSettingsMutation,
} from './notificationsApi';
import {
  crmFieldsShown,
  fieldErrorsOf,
  formFromSettings,
  secretsEndedByUrlChange,
  settingsPayload,
  tabOfFirstError,
  testableTypes,
  type SettingsField,
  type SettingsForm,
  type SettingsTab,
} from './settingsForm';
import { useCardToast, type CardToast } from '../card-toast';
import styles from './LeadNotifications.module.css';

const TABS: { id: SettingsTab; label: string }[] = [
  { id: 'general', label: 'General' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'zapier', label: 'Zapier' },
  { id: 'crm', label: 'CRM' },
];

const IMPERSONATION_REASON = 'An admin viewing as this agent can read the integrations but cannot change them (URLs, CRM, secrets and keys).';

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

function SettingsEditor({
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
  const shown = crmFieldsShown(form, integrations);
  const testable = testableTypes(saved, form, integrations);
  const ended = secretsEndedByUrlChange(saved, form, integrations);
  const readOnly = !canChangeIntegrations && <Alert tone="info">{IMPERSONATION_REASON}</Alert>;
  const id = (name: string) => `${ids}-${name}`;

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

      {panel(
        'general',
        <>
          <Toggle
            id={id('email')}
            label="Email notifications"
            hint="Email me about each new lead."
            checked={form.emailNotifications}
            onChange={(v) => set('emailNotifications', v)}
          />
          <Toggle
            id={id('instant')}
            label="Instant notifications"
            hint={INSTANT_NOTIFICATIONS_HINT}
            checked={form.instantNotifications}
            onChange={(v) => set('instantNotifications', v)}
          />
          {!form.instantNotifications && (
            <Alert tone="info">With instant notifications off, you get one digest email a day instead of an email per lead.</Alert>
          )}
        </>,
      )}

      {panel(
        'webhooks',
        <>
          {saved.webhookDisabled && (
            <Alert tone="warning">Your webhook answered 410 Gone, so deliveries there stopped. Save the URL again to turn it back on.</Alert>
          )}
          {readOnly}
          <Field id={id('webhookUrl')} label="Webhook URL" hint="An HTTPS endpoint that receives each lead as signed JSON (Standard Webhooks)." error={errors.webhookUrl}>
            <input
              id={id('webhookUrl')}
              className={fieldStyles.input}
              type="url"
              inputMode="url"
              placeholder="https://example.com/webhooks/leads"
              readOnly={!canChangeIntegrations}
              value={form.webhookUrl}
              onChange={(e) => set('webhookUrl', e.target.value)}
              aria-invalid={!!errors.webhookUrl}
              aria-describedby={errors.webhookUrl ? `${id('webhookUrl')}-error` : undefined}
            />
          </Field>
          <SecretField
            id={id('webhookSecret')}
            label="Webhook secret"
            value={form.webhookSecret}
            onChange={(v) => set('webhookSecret', v)}
            error={errors.webhookSecret}
            isSet={saved.hasWebhookSecret && !ended.webhookSecret}
            clearing={form.clearWebhookSecret}
            onClear={(v) => set('clearWebhookSecret', v)}
            canChange={canChangeIntegrations}
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
          <div className={styles.actions}>{testButton('custom', 'Test Webhook')}</div>
        </>,
      )}

      {panel(
        'zapier',
        <>
          {saved.zapierDisabled && <Alert tone="warning">Your Zapier hook answered 410 Gone, so deliveries there stopped. Save the URL again to turn it back on.</Alert>}
          {readOnly}
          <Field
            id={id('zapierWebhookUrl')}
            label="Zapier webhook URL"
            hint={
              saved.zapierWebhookUrl && form.zapierWebhookUrl === saved.zapierWebhookUrl
                ? 'Your saved Catch Hook URL, shortened: it works like a password, so only its start is shown. Paste a new one to replace it.'
                : "Your Zap's “Catch Hook” URL (https://hooks.zapier.com/…). It works like a password: keep it private."
            }
            error={errors.zapierWebhookUrl}
          >
            <input
              id={id('zapierWebhookUrl')}
              className={fieldStyles.input}
              type="url"
              inputMode="url"
              placeholder="https://hooks.zapier.com/hooks/catch/…"
              readOnly={!canChangeIntegrations}
              value={form.zapierWebhookUrl}
              onChange={(e) => set('zapierWebhookUrl', e.target.value)}
              aria-invalid={!!errors.zapierWebhookUrl}
              aria-describedby={errors.zapierWebhookUrl ? `${id('zapierWebhookUrl')}-error` : undefined}
            />
          </Field>
          <div className={styles.actions}>{testButton('zapier', 'Test Zapier')}</div>
        </>,
      )}

      {panel(
        'crm',
        <>
          {saved.crmDisabled && <Alert tone="warning">Your CRM answered 410 Gone, so deliveries there stopped. Save the CRM settings again to turn them back on.</Alert>}
          {readOnly}
          <Field id={id('crmType')} label="CRM" hint="Leads are sent to your CRM as they arrive." error={errors.crmType}>
            <select
              id={id('crmType')}
              className={fieldStyles.select}
              disabled={!canChangeIntegrations}
              value={form.crmType}
              onChange={(e) => set('crmType', e.target.value as SettingsForm['crmType'])}
              aria-invalid={!!errors.crmType}
              aria-describedby={errors.crmType ? `${id('crmType')}-error` : undefined}
            >
              <option value="">No CRM</option>
              {(integrations ?? []).map((c) => (
                <option key={c.type} value={c.type}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
          {shown.url && (
            <Field id={id('crmWebhookUrl')} label="CRM webhook URL" hint="An HTTPS endpoint of your CRM that accepts JSON. Shown shortened once saved." error={errors.crmWebhookUrl}>
              <input
                id={id('crmWebhookUrl')}
                className={fieldStyles.input}
                type="url"
                inputMode="url"
                placeholder="https://crm.example.com/api/leads"
                readOnly={!canChangeIntegrations}
                value={form.crmWebhookUrl}
                onChange={(e) => set('crmWebhookUrl', e.target.value)}
                aria-invalid={!!errors.crmWebhookUrl}
              aria-describedby={errors.crmWebhookUrl ? `${id('crmWebhookUrl')}-error` : undefined}
              />
            </Field>
          )}
          {shown.apiKey && (
            <SecretField
              id={id('crmApiKey')}
              label="CRM API key"
              value={form.crmApiKey}
              onChange={(v) => set('crmApiKey', v)}
              error={errors.crmApiKey}
              isSet={saved.hasCrmApiKey && saved.crmType === form.crmType && !ended.crmApiKey}
              clearing={form.clearCrmApiKey}
              onClear={(v) => set('clearCrmApiKey', v)}
              canChange={canChangeIntegrations}
              emptyHint={
                ended.crmApiKey
                  ? 'A new URL does not keep the stored API key: type it again to send it there.'
                  : crmKeyHint(integrations?.find((c) => c.type === form.crmType))
              }
              clearHint="The API key will be removed when you save."
            />
          )}
          {shown.connect && (
            <LionDeskConnection agentId={agentId} canChange={canChangeIntegrations} toast={toast} />
          )}
          <div className={styles.actions}>{testButton('crm', 'Test CRM')}</div>
        </>,
      )}

      <div className={styles.saveRow}>
        <Button type="submit" busy={saving} disabled={saving}>
          {saving ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}

/** What the key field asks for: each CRM names its own credential (HubSpot: a private app access token). */
function crmKeyHint(crm: CrmIntegration | undefined): string {
  if (!crm?.requiresApiKey) return 'Optional: sent as a Bearer token. Stored encrypted; never shown again.';
  return crm.apiKeyLabel === 'API key'
    ? 'Required for this CRM. Stored encrypted; never shown again.'
    : `Required for this CRM: your ${crm.name} ${crm.apiKeyLabel.toLowerCase()}. Stored encrypted; never shown again.`;
}

function Toggle({ id, label, hint, checked, onChange }: { id: string; label: string; hint: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className={styles.toggleRow}>
      <div>
        <label htmlFor={id} className={styles.toggleLabel}>
          {label}
        </label>
        <p className={styles.hint} id={`${id}-hint`}>
          {hint}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className={styles.switch}
        checked={checked}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.checked)}
      />
    </div>
  );
}

/** A write-only secret: says whether one is stored, replaced only when typed, removed only on request. */
function SecretField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  isSet: boolean;
  clearing: boolean;
  onClear: (v: boolean) => void;
  canChange: boolean;
  emptyHint: string;
  clearHint: string;
}) {
  const { id, label, value, onChange, error, isSet, clearing, onClear, canChange, emptyHint, clearHint } = props;
  const hint = !canChange
    ? 'Read only while an admin views as this agent.'
    : clearing
      ? clearHint
      : isSet
        ? 'A secret is stored. Type a new one to replace it; leave it empty to keep it.'
        : emptyHint;
  return (
    <Field
      id={id}
      label={
        <span className={styles.secretLabel}>
          {label} {isSet && !clearing && <Badge tone="success">Set</Badge>}
          {clearing && <Badge tone="warning">Will be removed</Badge>}
        </span>
      }
      hint={hint}
      error={error}
    >
      <div className={styles.secretRow}>
        <input
          id={id}
          className={fieldStyles.input}
          type="password"
          autoComplete="off"
          placeholder={isSet ? '••••••••  (stored)' : ''}
          value={value}
          disabled={!canChange || clearing}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {canChange && isSet && (
          <Button variant="ghost" onClick={() => onClear(!clearing)} aria-label={`${clearing ? 'Keep' : 'Remove'} ${label}`}>
            {clearing ? 'Keep' : 'Remove'}
          </Button>
        )}
      </div>
    </Field>
  );
}
