import { Badge, Button, Field, TextField, fieldStyles } from '@app/ui';
import styles from './LeadNotifications.module.css';
import type { SettingsTabProps } from './settingsTabs';

/** A write-only secret of the settings form: says whether one is stored, replaced only when typed, removed only on request. */
export function SecretField({
  tab,
  name,
  clear,
  label,
  isSet,
  emptyHint,
  clearHint,
}: {
  tab: SettingsTabProps;
  name: 'webhookSecret' | 'crmApiKey';
  /** The form's "remove it when saved" flag for this secret. */
  clear: 'clearWebhookSecret' | 'clearCrmApiKey';
  label: string;
  isSet: boolean;
  emptyHint: string;
  clearHint: string;
}) {
  const { canChange } = tab;
  const id = tab.id(name);
  const clearing = tab.form[clear];
  const onClear = (v: boolean) => tab.set(clear, v);
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
      error={tab.errors[name]}
    >
      {(control) => (
        <div className={styles.secretRow}>
          <input
            {...control}
            className={fieldStyles.input}
            type="password"
            autoComplete="off"
            placeholder={isSet ? '••••••••  (stored)' : ''}
            value={tab.form[name]}
            disabled={!canChange || clearing}
            onChange={(e) => tab.set(name, e.target.value)}
          />
          {canChange && isSet && (
            <Button variant="ghost" onClick={() => onClear(!clearing)} aria-label={`${clearing ? 'Keep' : 'Remove'} ${label}`}>
              {clearing ? 'Keep' : 'Remove'}
            </Button>
          )}
        </div>
      )}
    </Field>
  );
}

/** An integration's URL field of the settings form: typed in full, read only while an admin views as the agent. */
export function UrlField({
  tab,
  name,
  label,
  hint,
  placeholder,
}: {
  tab: SettingsTabProps;
  name: 'webhookUrl' | 'zapierWebhookUrl' | 'crmWebhookUrl';
  label: string;
  hint: string;
  placeholder: string;
}) {
  return (
    <TextField
      id={tab.id(name)}
      label={label}
      hint={hint}
      error={tab.errors[name]}
      type="url"
      inputMode="url"
      placeholder={placeholder}
      readOnly={!tab.canChange}
      value={tab.form[name]}
      onChange={(e) => tab.set(name, e.target.value)}
    />
  );
}
