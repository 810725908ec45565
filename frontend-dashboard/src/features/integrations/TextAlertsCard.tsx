// The zod-free door: the contracts barrel carries zod, which the dashboard does not load.
import { SMS_CODE_LENGTH, SMS_CONSENT_TEXT, SMS_MESSAGES } from '@app/contracts/rules';
import { Alert, Badge, Button, Panel, Spinner, TextField, fieldStyles } from '@app/ui';
import { useId, useState, type FormEvent } from 'react';
import { failureMessage } from '../../store/api';
import { useGetMeQuery } from '../auth/authApi';
import { fieldError } from './fieldError';
import { useGetSmsQuery, useSetSmsNumberMutation, useTurnSmsOffMutation, useVerifySmsMutation } from './integrationsApi';
import styles from './Integrations.module.css';

const STATUS_BADGE = {
  off: { label: 'Off', tone: 'neutral' },
  pending: { label: 'Waiting for the code', tone: 'warning' },
  active: { label: 'On', tone: 'success' },
  stopped: { label: 'Paused by STOP', tone: 'danger' },
} as const;

/**
 * Text alerts: a text per new lead (at most one a minute; leads of the same minute share one text) with the
 * buyer's name, the listing and a link here. The number is confirmed with a texted code; STOP pauses it.
 */
export function TextAlertsCard({ agentId }: { agentId: string }) {
  const ids = useId();
  const { data: me } = useGetMeQuery();
  const canChange = !me?.impersonatedBy;
  const sms = useGetSmsQuery(agentId);
  const [setNumber, sending] = useSetSmsNumberMutation();
  const [verify, verifying] = useVerifySmsMutation();
  const [turnOff, turningOff] = useTurnSmsOffMutation();
  const [phone, setPhone] = useState('');
  const [consent, setConsent] = useState(false);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ phone?: string | null; consent?: string | null; code?: string | null; other?: string | null }>({});

  const sendCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!consent) return setErrors({ consent: SMS_MESSAGES.consent });
    try {
      await setNumber({ agentId, phone }).unwrap();
      setErrors({});
      setCode('');
    } catch (error) {
      setErrors({ phone: fieldError(error, 'phone'), other: fieldError(error, 'phone') ? null : failureMessage(error) });
    }
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await verify({ agentId, code }).unwrap();
      setErrors({});
      setPhone('');
      setConsent(false);
    } catch (error) {
      setErrors({ code: fieldError(error, 'code') ?? failureMessage(error) });
    }
  };

  let body;
  if (sms.isLoading) body = <Spinner label="Loading text alerts..." />;
  else if (!sms.data) body = <Alert tone="danger">Could not load text alerts.</Alert>;
  else {
    const s = sms.data;
    const badge = STATUS_BADGE[s.status];
    body = (
      <>
        <p className={styles.row}>
          <Badge tone={badge.tone}>{badge.label}</Badge>
          {s.phone && <span>{s.phone}</span>}
          {s.status === 'active' && s.consentAt && <span className={styles.muted}>since {new Date(s.consentAt).toLocaleString()}</span>}
        </p>
        {s.status === 'stopped' && <Alert tone="warning">{SMS_MESSAGES.stopped}</Alert>}
        {s.provider === 'outbox' && <p className={styles.muted}>This installation has no SMS provider yet: texts are kept in its outbox instead of being sent.</p>}
        {!canChange && <Alert tone="info">An admin viewing as this agent cannot change the text alert number.</Alert>}
        {canChange && s.status === 'pending' && (
          <form className={styles.form} onSubmit={(e) => void confirm(e)} noValidate>
            <TextField
              id={`${ids}-code`}
              label="Code"
              hint={`We texted a ${SMS_CODE_LENGTH}-digit code to ${s.phone}. It expires in 10 minutes.`}
              error={errors.code}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={SMS_CODE_LENGTH}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            />
            <div className={styles.row}>
              <Button type="submit" busy={verifying.isLoading} disabled={verifying.isLoading || code.length !== SMS_CODE_LENGTH}>
                Verify
              </Button>
            </div>
          </form>
        )}
        {canChange && s.status !== 'active' && (
          <form className={styles.form} onSubmit={(e) => void sendCode(e)} noValidate>
            <TextField
              id={`${ids}-phone`}
              label="Mobile number"
              hint="A US mobile number. We text a code to confirm it."
              error={errors.phone ?? errors.other}
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder="(813) 555-0101"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
            />
            <label className={styles.consent}>
              <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} aria-describedby={`${ids}-consent-error`} />
              <span>{SMS_CONSENT_TEXT}</span>
            </label>
            {errors.consent && (
              <p role="alert" id={`${ids}-consent-error`} className={fieldStyles.fieldError}>
                {errors.consent}
              </p>
            )}
            <div className={styles.row}>
              <Button type="submit" variant={s.status === 'pending' ? 'secondary' : 'primary'} busy={sending.isLoading} disabled={sending.isLoading || !phone.trim()}>
                {s.status === 'pending' ? 'Send a new code' : 'Text me a code'}
              </Button>
            </div>
          </form>
        )}
        {canChange && s.status !== 'off' && (
          <div className={styles.row}>
            <Button variant="ghost" busy={turningOff.isLoading} onClick={() => void turnOff({ agentId })}>
              Turn off text alerts
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <Panel title="Text Alerts" className={styles.card} aria-label="Text Alerts" data-testid="text-alerts-card">
      <p className={styles.intro}>Get a text the moment a buyer sends a lead: the buyer’s name, the listing and a link to this dashboard. At most one text a minute; leads of the same minute share one text.</p>
      {body}
    </Panel>
  );
}
