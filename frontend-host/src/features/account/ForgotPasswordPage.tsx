import { loginEmailSchema } from '@app/contracts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { buttonStyles as buttons, TextField, fieldStyles } from '@app/ui';
import { PageShell } from '../../components/PageShell';
import { isApiError } from '../../store/api';
import styles from './Account.module.css';
import { useForgotPasswordMutation } from './accountApi';

/** `/forgot-password` ("Forgot password?" on /login): an emailed reset link; the same answer for every address. */
export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const [send, { data, isLoading, error }] = useForgotPasswordMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = loginEmailSchema.safeParse({ email });
    setEmailError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    if (parsed.success) await send(parsed.data);
  };

  return (
    <PageShell title="Forgot password?">
      {data ? (
        <>
          <p className={styles.text} role="status">
            {data.message}
          </p>
          <Link to="/login">Back to login</Link>
        </>
      ) : (
        <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
          <p className={styles.text}>Enter the email address you log in with. We will send you a link to choose a new password.</p>
          <TextField id="forgot-email" label="Email" error={emailError} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          {isApiError(error) && (
            <p className={fieldStyles.fieldError} role="alert">
              {error.serverMessage ?? 'Something went wrong. Please try again.'}
            </p>
          )}
          <div className={styles.actions}>
            <button type="submit" className={buttons.primary} disabled={isLoading}>
              {isLoading ? 'Sending...' : 'Send Reset Link'}
            </button>
            <Link to="/login">Back to login</Link>
          </div>
        </form>
      )}
    </PageShell>
  );
}
