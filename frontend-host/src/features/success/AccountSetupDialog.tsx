import { ACCOUNT_SETUP_DEFAULTS, accountSetupFormSchema } from '@app/contracts';
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { buttonStyles as buttons } from '@app/ui';
import { Dialog } from '../../components/Dialog';
import { CloseIcon } from '../../components/Icons';
import { isApiError } from '../../store/api';
import { useToast } from '../toast/useToast';
import { useEmailAgentSignInLinkMutation } from '../auth/authApi';
import styles from './Success.module.css';
import { useSetUpAccountMutation } from './successApi';
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
  /**
   * `setup`: the agent has no owner yet, "Complete Your Account Setup" (spec 000 §2) sends the link that verifies
   * the email; `sign-in`: the agent has an owner, a sign-in link goes to the agent's own address.
   */
  mode: 'setup' | 'sign-in';
  /** Prefilled: for an agent found in the MLS, the email the MLS publishes (the link can only go there). */
  defaultEmail: string | null;
  onClose: () => void;
  /** The link is on its way (the address it went to, masked for a sign-in link); the caller watches for the sign-in. */
  onSent: (email: string) => void;
  /** Where the link went, once sent (the dialog then says so and waits). */
  sentTo: string | null;
  onChangeEmail: () => void;
}

/**
 * "Complete Your Account Setup" (spec 000 §2, §5; DESIGN §3): an email and an optional password, sent as
 * POST /api/agents/:id/account-setup. The server emails a single-use, 30-minute link to that address (for an agent
 * found in the MLS, the one the MLS publishes): opening it verifies the address and signs in the browser that
 * opens it, no password needed. The dialog then says where it went and waits; the success screen watches
 * /api/auth/me and opens the dashboard as soon as this browser is signed in. For an agent that already has an
 * owner, it offers the sign-in link instead. It cannot be dismissed by a click outside or by Escape.
 */
export function AccountSetupDialog({ open, agentId, mode, defaultEmail, onClose, onSent, sentTo, onChangeEmail }: AccountSetupDialogProps) {
  const { toast } = useToast();
  const [values, setValues] = useState<Values>({ ...ACCOUNT_SETUP_DEFAULTS, email: defaultEmail ?? '' } as Values);
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [setUpAccount, setup] = useSetUpAccountMutation();
  const [emailSignInLink, signIn] = useEmailAgentSignInLinkMutation();
  const isLoading = setup.isLoading || signIn.isLoading;
  const [resent, setResent] = useState(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const emailRef = useRef<HTMLInputElement | null>(null);
  const signInRef = useRef<HTMLButtonElement | null>(null);
  const formId = useId();

  const change = (field: Field, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(validate(next));
  };

  const failed = (error: unknown) => {
    const serverMessage = isApiError(error) ? error.serverMessage : null;
    toast({ title: SUCCESS_TOASTS.setupErrorTitle, description: serverMessage || SUCCESS_TOASTS.setupErrorFallback, variant: 'destructive' });
    // An email that does not match the MLS record is the email field's problem.
    if (isApiError(error) && serverMessage && (error.status === 409 || error.code === 'agents.mls_email_required')) {
      setErrors({ email: serverMessage });
      inputs.current.email?.focus();
    }
  };

  const send = async (): Promise<boolean> => {
    if (mode === 'sign-in') {
      const result = await emailSignInLink({ agentId });
      if (result.error) failed(result.error);
      else onSent(result.data.email);
      return !result.error;
    }
    const result = await setUpAccount({ agentId, email: values.email.trim(), ...(values.password ? { password: values.password } : {}) });
    if (result.error) failed(result.error);
    else onSent(result.data.email);
    return !result.error;
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
    setResent(false);
    await send();
  };

  const resend = async () => {
    if (await send()) setResent(true);
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
      initialFocusRef={mode === 'sign-in' ? signInRef : emailRef}
      title={mode === 'sign-in' ? 'Sign in to your Agent Dashboard' : 'Complete Your Account Setup'}
      description={
        mode === 'sign-in'
          ? 'This agent already has an account. We email a sign-in link to the agent\u2019s own address: opening it signs you in, no password needed.'
          : 'We email you a link: opening it confirms your email and signs you in to your Agent Dashboard, where you follow this campaign and your leads. No password needed.'
      }
      header={
        <button type="button" className={styles.dialogClose} aria-label="Close" onClick={onClose} disabled={isLoading}>
          <CloseIcon />
        </button>
      }
    >
      {sentTo ? (
        <div className={styles.setupForm} data-testid="account-setup-sent">
          <p role="status">
            <strong>Check your email.</strong> We sent a link to <strong>{sentTo}</strong>. Open it in this browser or on your phone:
            it signs you in to your Agent Dashboard. The link works once, for 30 minutes.
          </p>
          <p>This page opens your dashboard as soon as you open the link in this browser.</p>
          {resent && <p role="status">We sent a new link.</p>}
          <div className={styles.dialogActions}>
            {mode === 'setup' && (
              <button type="button" className={buttons.ghost} onClick={onChangeEmail} disabled={isLoading}>
                Use a different email
              </button>
            )}
            <button type="button" className={buttons.ghost} onClick={() => void resend()} disabled={isLoading}>
              {isLoading ? 'Sending...' : 'Resend email'}
            </button>
            <button type="button" className={buttons.primary} onClick={onClose} disabled={isLoading}>
              Close
            </button>
          </div>
        </div>
      ) : mode === 'sign-in' ? (
        <div className={styles.setupForm}>
          <div className={styles.dialogActions}>
            <button type="button" className={buttons.ghost} onClick={onClose} disabled={isLoading}>
              Maybe later
            </button>
            <button ref={signInRef} type="button" className={buttons.primary} onClick={() => void send()} disabled={isLoading}>
              {isLoading && <span className={buttons.spinner} aria-hidden="true" />}
              {isLoading ? 'Sending...' : 'Email me a sign-in link'}
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
              Password (optional)
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
