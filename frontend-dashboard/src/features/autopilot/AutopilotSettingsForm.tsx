import type { AutopilotSettings } from '@app/contracts';
// The zod-free door: the contracts barrel carries zod, which the dashboard does not load.
import { AUTOPILOT_MESSAGES, AUTOPILOT_WINDOW_MAX_HOURS, AUTOPILOT_WINDOW_MIN_HOURS, BUDGET_GRID } from '@app/contracts/rules';
import { Button, Field, TextField, fieldStyles } from '@app/ui';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { failureMessage } from '../../store/api';
import { useGetMeQuery } from '../auth/authApi';
import type { useCardToast } from '../card-toast';
import { useUpdateAutopilotMutation } from './autopilotApi';
import styles from './Autopilot.module.css';

/** A whole-dollar amount as autopilot shows it ("$50"). */
export const dollars = (n: number) => `$${n}`;

/** Autopilot's settings: on or off, what makes an ad, its budget, format and veto window, and pausing on pending. */
export function AutopilotSettingsForm({ agentId, saved, disabled, toast }: { agentId: string; saved: AutopilotSettings; disabled: boolean; toast: ReturnType<typeof useCardToast>['show'] }) {
  const ids = useId();
  const id = (name: string) => `${ids}-${name}`;
  const { data: me } = useGetMeQuery();
  const impersonating = !!me?.impersonatedBy;
  const [form, setForm] = useState(saved);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [update, { isLoading }] = useUpdateAutopilotMutation();
  useEffect(() => setForm(saved), [saved]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await update({ agentId, body: form }).unwrap();
      setErrors({});
      toast({ title: AUTOPILOT_MESSAGES.saved, tone: 'success' });
    } catch (error) {
      const fields = (error as { fields?: Record<string, string> }).fields ?? {};
      setErrors(fields);
      toast({ title: 'Autopilot settings not saved', description: failureMessage(error) ?? undefined, tone: 'danger' });
    }
  };
  const off = disabled || impersonating;
  return (
    <form className={styles.form} onSubmit={(e) => void save(e)} noValidate aria-label="Autopilot settings">
      <label className={styles.switchRow} htmlFor={id('enabled')}>
        <span>
          <span className={styles.switchLabel}>Autopilot</span>
          <span className={styles.muted}> {form.enabled ? 'On: new listings get their ads on their own.' : 'Off.'}</span>
        </span>
        <input id={id('enabled')} type="checkbox" role="switch" className={styles.switch} checked={form.enabled} disabled={off} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} />
      </label>
      <fieldset className={styles.triggers} disabled={off}>
        <legend className={styles.legend}>Make an ad when</legend>
        <label>
          <input type="checkbox" checked={form.triggers.justListed} onChange={(e) => setForm({ ...form, triggers: { ...form.triggers, justListed: e.target.checked } })} /> a listing is new (Just
          Listed)
        </label>
        <label>
          <input type="checkbox" checked={form.triggers.justSold} onChange={(e) => setForm({ ...form, triggers: { ...form.triggers, justSold: e.target.checked } })} /> a listing sells (Just Sold)
        </label>
        <label>
          <input type="checkbox" checked={form.triggers.priceImproved} onChange={(e) => setForm({ ...form, triggers: { ...form.triggers, priceImproved: e.target.checked } })} /> its price drops
          (Price Improved)
        </label>
      </fieldset>
      <div className={styles.row}>
        <Field id={id('budget')} label="Budget per ad" error={errors.budget}>
          {(control) => (
            <select {...control} className={fieldStyles.input} value={form.budget} disabled={off} onChange={(e) => setForm({ ...form, budget: Number(e.target.value) })}>
              {BUDGET_GRID.map((b) => (
                <option key={b} value={b}>
                  {dollars(b)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id={id('format')} label="Ad format" error={errors.adFormat}>
          {(control) => (
            <select {...control} className={fieldStyles.input} value={form.adFormat} disabled={off} onChange={(e) => setForm({ ...form, adFormat: e.target.value as AutopilotSettings['adFormat'] })}>
              <option value="single">Single image</option>
              <option value="carousel">Carousel</option>
            </select>
          )}
        </Field>
        <TextField
          id={id('window')}
          label="Veto window (hours)"
          hint="Time to launch now, edit or skip before the ad launches."
          error={errors.vetoWindowHours}
          type="number"
          min={AUTOPILOT_WINDOW_MIN_HOURS}
          max={AUTOPILOT_WINDOW_MAX_HOURS}
          value={form.vetoWindowHours}
          disabled={off}
          onChange={(e) => setForm({ ...form, vetoWindowHours: Number(e.target.value) })}
        />
      </div>
      <label className={styles.check}>
        <input type="checkbox" checked={form.pauseOnPending} disabled={off} onChange={(e) => setForm({ ...form, pauseOnPending: e.target.checked })} /> Pause the ad when the listing goes pending or
        is withdrawn
      </label>
      {impersonating && <p className={styles.muted}>An admin viewing as this agent cannot change autopilot.</p>}
      <div>
        <Button type="submit" busy={isLoading} disabled={off}>
          Save autopilot
        </Button>
      </div>
    </form>
  );
}
