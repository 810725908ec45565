import { ACCOUNT_SETUP_DEFAULTS, accountSetupFormSchema } from '@app/contracts';
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { buttonStyles as buttons } from '@app/ui';
import { Dialog } from '../../components/Dialog';
import { CloseIcon } from '../../components/Icons';
import { isApiError } from '../../store/api';
import { useToast } from '../toast/useToast';
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
  /** Prefilled when the agent already has one (e.g. found in the MLS). */
  defaultEmail: string | null;
  onClose: () => void;
  /** After a successful setup; the caller closes the dialog, says so and opens the dashboard. */
  onComplete: () => void;
}

/**
 * "Complete Your Account Setup" (spec 000 §2, §5): email, password and confirmation, sent as
 * PUT /api/agents/:id. It cannot be dismissed by a click outside or by Escape, only by its own
 * close or "Maybe later" buttons.
 */
export function AccountSetupDialog({ open, agentId, defaultEmail, onClose, onComplete }: AccountSetupDialogProps) {
  const { toast } = useToast();
  const [values, setValues] = useState<Values>({ ...ACCOUNT_SETUP_DEFAULTS, email: defaultEmail ?? '' } as Values);
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [setUpAccount, { isLoading }] = useSetUpAccountMutation();
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
    onComplete();
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
