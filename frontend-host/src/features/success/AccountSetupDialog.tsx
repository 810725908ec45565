import { ACCOUNT_SETUP_DEFAULTS, accountSetupFormSchema } from '@app/contracts';
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { TextField, buttonStyles as buttons } from '@app/ui';
import { Dialog } from '../../components/Dialog';
import { CloseIcon } from '../../components/Icons';
import { isApiError } from '../../store/api';
import { useToast } from '../toast/useToast';
import { useEmailAgentSignInLinkMutation } from '../auth/authApi';
import styles from './Success.module.css';
import { useSetUpAccountMutation } from './successApi';
import { SUCCESS_TOASTS } from './successMessages';
import { LinkSent } from './LinkSent';

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

  // Each field: its id, value, message (shown; the toast announces a failed send) and ref.
  const fieldProps = (field: Field) => ({
    id: `${formId}-${field}`,
    ref: (el: HTMLInputElement | null) => {
      inputs.current[field] = el;
      if (field === 'email') emailRef.current = el;
    },
    value: values[field],
    disabled: isLoading,
    error: errors[field],
    announce: 'none' as const,
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
        <LinkSent sentTo={sentTo} resent={resent} busy={isLoading} canChangeEmail={mode === 'setup'} onChangeEmail={onChangeEmail} onResend={() => void resend()} onClose={onClose} />
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
          <TextField {...fieldProps('email')} label="Email" type="email" autoComplete="email" placeholder="you@brokerage.com" />
          <TextField {...fieldProps('password')} label="Password (optional)" type="password" autoComplete="new-password" placeholder="At least 6 characters" />
          <TextField {...fieldProps('confirmPassword')} label="Confirm Password" type="password" autoComplete="new-password" />
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
