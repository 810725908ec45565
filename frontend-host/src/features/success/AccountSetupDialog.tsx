import { ACCOUNT_SETUP_DEFAULTS, accountSetupFormSchema } from '@app/contracts';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { buttonStyles as buttons } from '@app/ui';
import { Dialog } from '../../components/Dialog';
import { CloseIcon } from '../../components/Icons';
import { isApiError } from '../../store/api';
import { useToast } from '../toast/useToast';
import styles from './Success.module.css';
import { useGetAccountAgentQuery, useSetUpAccountMutation } from './successApi';
import { SUCCESS_TOASTS } from './successMessages';

type Field = 'email' | 'password' | 'confirmPassword';
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

const FIELDS: Field[] = ['email', 'password', 'confirmPassword'];

function validate(values: Values): Errors {
  const parsed = accountSetupFormSchema.safeParse(values);
  if (parsed.success) return {};
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    if (FIELDS.includes(field) && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

interface AccountSetupDialogProps {
  open: boolean;
  agentId: number;
  /** Prefilled when the agent already has one (e.g. found in the MLS). */
  defaultEmail: string | null;
  onClose: () => void;
  /** After a successful setup (the emailed link was opened); the caller closes the dialog, says so and opens the dashboard. */
  onComplete: () => void;
}

/** While the link is on its way, the agent is re-read this often: opening the link (in this browser) completes the setup. */
const VERIFICATION_POLL_MS = 3000;

/**
 * "Complete Your Account Setup" (spec 000 §2, §5): email, password and confirmation, sent as
 * PUT /api/agents/:id. The server emails a one-time link to that address (DESIGN §6): the dialog then
 * says where it went and waits for the link to be opened, with a way to resend it or use another
 * address. It cannot be dismissed by a click outside or by Escape, only by its own close or
 * "Maybe later" buttons.
 */
export function AccountSetupDialog({ open, agentId, defaultEmail, onClose, onComplete }: AccountSetupDialogProps) {
  const { toast } = useToast();
  const [values, setValues] = useState<Values>({ ...ACCOUNT_SETUP_DEFAULTS, email: defaultEmail ?? '' } as Values);
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [setUpAccount, { isLoading }] = useSetUpAccountMutation();
  /** The address the link went to, once the server accepted the setup. */
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const polled = useGetAccountAgentQuery(agentId, { skip: !open || !sentTo, pollingInterval: VERIFICATION_POLL_MS });
  const verified = !!sentTo && polled.data?.hasPassword === true;
  useEffect(() => {
    if (verified) onComplete();
    // onComplete closes the dialog; once is enough.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [verified]);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const emailRef = useRef<HTMLInputElement | null>(null);
  const formId = useId();

  const change = (field: Field, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(validate(next));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isLoading) return;
    setSubmitted(true);
    const found = validate(values);
    setErrors(found);
    const firstInvalid = FIELDS.find((f) => found[f]);
    if (firstInvalid) {
      inputs.current[firstInvalid]?.focus();
      return;
    }
    const result = await setUpAccount({ agentId, email: values.email.trim(), password: values.password });
    if (result.error) {
      const serverMessage = isApiError(result.error) ? result.error.serverMessage : null;
      toast({
        title: SUCCESS_TOASTS.setupErrorTitle,
        description: serverMessage || SUCCESS_TOASTS.setupErrorFallback,
        variant: 'destructive',
      });
      // An email that is taken or does not match the MLS record is the email field's problem.
      if (isApiError(result.error) && serverMessage && (result.error.status === 409 || result.error.code === 'agents.mls_email_required')) {
        setErrors({ email: serverMessage });
        inputs.current.email?.focus();
      }
      return;
    }
    setResent(false);
    setSentTo(result.data.email);
  };

  const resend = async () => {
    const result = await setUpAccount({ agentId, email: values.email.trim(), password: values.password });
    if (result.error) {
      const serverMessage = isApiError(result.error) ? result.error.serverMessage : null;
      toast({ title: SUCCESS_TOASTS.setupErrorTitle, description: serverMessage || SUCCESS_TOASTS.setupErrorFallback, variant: 'destructive' });
      return;
    }
    setResent(true);
  };

  const fieldProps = (field: Field) => ({
    id: `${formId}-${field}`,
    ref: (el: HTMLInputElement | null) => {
      inputs.current[field] = el;
      if (field === 'email') emailRef.current = el;
    },
    className: styles.input,
    value: values[field],
    disabled: isLoading,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${formId}-${field}-error` : undefined,
    onChange: (event: ChangeEvent<HTMLInputElement>) => change(field, event.target.value),
  });

  return (
    <Dialog
      open={open}
      testId="account-setup"
      initialFocusRef={emailRef}
      title="Complete Your Account Setup"
      description="Set a password to sign in to your Agent Dashboard, where you can follow this campaign and see your leads."
      header={
        <button type="button" className={styles.dialogClose} aria-label="Close" onClick={onClose} disabled={isLoading}>
          <CloseIcon />
        </button>
      }
    >
      {sentTo ? (
        <div className={styles.setupForm} data-testid="account-setup-sent">
          <p role="status">
            <strong>Check your email.</strong> We sent a link to <strong>{sentTo}</strong>. Open it to confirm that this
            address is yours and finish your account setup. The link works once, for 30 minutes.
          </p>
          <p>Until then your account has no password; this browser can still reach your campaign and dashboard link.</p>
          {resent && <p role="status">We sent a new link. Only the newest link works.</p>}
          <div className={styles.dialogActions}>
            <button type="button" className={buttons.ghost} onClick={() => setSentTo(null)} disabled={isLoading}>
              Use a different email
            </button>
            <button type="button" className={buttons.ghost} onClick={() => void resend()} disabled={isLoading}>
              {isLoading ? 'Sending...' : 'Resend email'}
            </button>
            <button type="button" className={buttons.primary} onClick={onClose} disabled={isLoading}>
              Close
            </button>
          </div>
        </div>
      ) : (
      <form className={styles.setupForm} onSubmit={(event) => void submit(event)} noValidate>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${formId}-email`}>
            Email
          </label>
          <input {...fieldProps('email')} type="email" autoComplete="email" placeholder="you@brokerage.com" />
          <FieldError id={`${formId}-email-error`} message={errors.email} />
        </div>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${formId}-password`}>
            Password
          </label>
          <input {...fieldProps('password')} type="password" autoComplete="new-password" placeholder="At least 6 characters" />
          <FieldError id={`${formId}-password-error`} message={errors.password} />
        </div>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${formId}-confirmPassword`}>
            Confirm Password
          </label>
          <input {...fieldProps('confirmPassword')} type="password" autoComplete="new-password" />
          <FieldError id={`${formId}-confirmPassword-error`} message={errors.confirmPassword} />
        </div>
        <div className={styles.dialogActions}>
          <button type="button" className={buttons.ghost} onClick={onClose} disabled={isLoading}>
            Maybe later
          </button>
          <button type="submit" className={buttons.primary} disabled={isLoading}>
            {isLoading && <span className={buttons.spinner} aria-hidden="true" />}
            {isLoading ? 'Setting up...' : 'Complete Setup'}
          </button>
        </div>
      </form>
      )}
    </Dialog>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className={styles.fieldError}>
      {message}
    </p>
  );
}
