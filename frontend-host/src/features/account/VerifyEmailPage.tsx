import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { buttonStyles as buttons, fieldStyles } from '@app/ui';
import { PageShell } from '../../components/PageShell';
import { isApiError } from '../../store/api';
import styles from './Account.module.css';
import { useVerifyEmailMutation } from './accountApi';
import { usePasswordFields } from './PasswordFields';

/**
 * `/verify-email?token=…`, the link in the verification email. One click confirms (a link scanner that
 * only fetches the page confirms nothing). Opened in another browser than the one that set up the
 * account, the server asks for the password to be chosen here.
 */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [verify, { data, isLoading, error }] = useVerifyEmailMutation();
  const [needsPassword, setNeedsPassword] = useState(false);
  const passwords = usePasswordFields(needsPassword && isApiError(error) && error.code === 'agents.common_password' ? error.serverMessage ?? undefined : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (needsPassword && !passwords.check()) return;
    const result = await verify({ token, ...(needsPassword ? { password: passwords.password } : {}) });
    if (isApiError(result.error) && result.error.code === 'agents.choose_password') setNeedsPassword(true);
  };

  if (data) {
    return (
      <PageShell title="Email confirmed">
        <p className={styles.text}>
          {data.purpose === 'account_setup'
            ? `Thank you, ${data.name}. Your account is set up and you are logged in.`
            : data.loggedIn
              ? 'Your new login email is confirmed. Use it the next time you log in.'
              : 'Your new login email is confirmed. Log in with it in the browser where you asked for the change.'}
        </p>
        <div className={styles.actions}>
          {data.loggedIn ? (
            <Link className={buttons.primary} to="/dashboard">
              Go to Dashboard
            </Link>
          ) : (
            <Link className={buttons.primary} to="/login">
              Log in
            </Link>
          )}
        </div>
      </PageShell>
    );
  }

  const failure = isApiError(error) && error.code !== 'agents.choose_password' && !(needsPassword && error.code === 'agents.common_password') ? error : null;
  return (
    <PageShell title="Confirm your email">
      {!token ? (
        <p className={styles.text}>This link is incomplete. Please open the link from the email again, or ask for a new one.</p>
      ) : (
        <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
          <p className={styles.text}>
            {needsPassword
              ? 'This link was opened in another browser than the one where the account was set up. Choose the password for your account here.'
              : 'Confirm that this email address is yours to finish setting up your account.'}
          </p>
          {needsPassword && passwords.fields}
          {failure && (
            <p className={fieldStyles.fieldError} role="alert">
              {failure.serverMessage ?? 'Something went wrong. Please try again.'}
            </p>
          )}
          <div className={styles.actions}>
            <button type="submit" className={buttons.primary} disabled={isLoading}>
              {isLoading ? 'Confirming...' : needsPassword ? 'Set Password' : 'Confirm my email'}
            </button>
            <Link to="/login">Back to login</Link>
          </div>
        </form>
      )}
    </PageShell>
  );
}
