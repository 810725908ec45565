import { useEffect, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { buttonStyles as buttons, fieldStyles } from '@app/ui';
import { PageShell } from '../../components/PageShell';
import { isApiError } from '../../store/api';
import styles from './Account.module.css';
import { useVerifyEmailMutation } from './accountApi';

/**
 * `/verify-email?token=…`, the link in every email to the agent (account setup, sign-in, email change). One click
 * confirms (a link scanner that only fetches the page confirms nothing): the address is proved, this browser is
 * signed in with no password needed (DESIGN §3), and the agent's dashboard opens (`/dashboard?agent={id}`).
 */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const [verify, { data, isLoading, error }] = useVerifyEmailMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await verify({ token });
  };

  useEffect(() => {
    if (data?.loggedIn) navigate(`/dashboard?agent=${data.id}`, { replace: true });
  }, [data, navigate]);

  const failure = isApiError(error) ? error : null;
  return (
    <PageShell title="Sign in to your Agent Dashboard">
      {!token ? (
        <p className={styles.text}>This link is incomplete. Please open the link from the email again, or ask for a new one.</p>
      ) : (
        <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
          <p className={styles.text}>Confirm that this email address is yours: this signs you in to your Agent Dashboard, no password needed.</p>
          {failure && (
            <p className={fieldStyles.fieldError} role="alert">
              {failure.serverMessage ?? 'Something went wrong. Please try again.'}
            </p>
          )}
          <div className={styles.actions}>
            <button type="submit" className={buttons.primary} disabled={isLoading || !!data}>
              {isLoading || data ? 'Signing in...' : 'Confirm and sign in'}
            </button>
            <Link to="/login">{failure ? 'Email me a new sign-in link' : 'Back to login'}</Link>
          </div>
        </form>
      )}
    </PageShell>
  );
}
