import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { buttonStyles as buttons, fieldStyles } from '@app/ui';
import { PageShell } from '../../components/PageShell';
import { isApiError } from '../../store/api';
import { useToast } from '../toast/useToast';
import styles from './Account.module.css';
import { useResetPasswordMutation } from './accountApi';
import { usePasswordFields } from './PasswordFields';

/** `/reset-password?token=…`, the link in the reset email: a new password, then the dashboard. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const { toast } = useToast();
  const [reset, { isLoading, error }] = useResetPasswordMutation();
  const fieldError = isApiError(error) && error.code === 'agents.common_password' ? error.serverMessage ?? undefined : undefined;
  const passwords = usePasswordFields(fieldError);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!passwords.check()) return;
    const result = await reset({ token, password: passwords.password });
    if (!result.error) {
      toast({ title: 'Password changed', description: 'Your new password is set. Other devices have been logged out.' });
      navigate('/dashboard');
    }
  };

  const failure = isApiError(error) && !fieldError ? error : null;
  return (
    <PageShell title="Choose a new password">
      <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
        {passwords.fields}
        {failure && (
          <p className={fieldStyles.fieldError} role="alert">
            {failure.serverMessage ?? 'Something went wrong. Please try again.'}
          </p>
        )}
        <div className={styles.actions}>
          <button type="submit" className={buttons.primary} disabled={isLoading || !token}>
            {isLoading ? 'Saving...' : 'Set New Password'}
          </button>
          <Link to="/forgot-password">Ask for a new link</Link>
        </div>
      </form>
    </PageShell>
  );
}
