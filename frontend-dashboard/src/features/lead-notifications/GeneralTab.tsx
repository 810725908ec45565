import { Alert } from '@app/ui';
// The zod-free door: the contracts barrel carries zod, which the dashboard does not load.
import { INSTANT_NOTIFICATIONS_HINT } from '@app/contracts/rules';
import styles from './LeadNotifications.module.css';
import type { SettingsTabProps } from './settingsTabs';

/** General: email notifications, and instant ones (else a daily digest). */
export function GeneralTab({ id, form, set }: Pick<SettingsTabProps, 'id' | 'form' | 'set'>) {
  return (
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
    </>
  );
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
