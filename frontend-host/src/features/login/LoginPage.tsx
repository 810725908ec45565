import { loginEmailSchema, loginSchema } from '@app/contracts';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Field, TextField, VisuallyHidden, fieldStyles } from '@app/ui';
import { PageShell } from '../../components/PageShell';
import { isApiError, type ApiError } from '../../store/api';
import { useEmailSignInLinkMutation, useLoginMutation } from '../auth/authApi';
import { useToast } from '../toast/useToast';
import { GoogleButton, GoogleLoginResultNotice, googleResultOf } from './GoogleLogin';
import { LOGIN_TOASTS, retryAfterText } from './loginMessages';
import styles from './Login.module.css';

type Step = 'email' | 'password';

/**
 * `/login` (spec 001 §2, §4): two steps. Step 1 asks the email (with 'Sign up' and 'Continue with Google');
 * step 2 the password, with show/hide and Back. After login the browser goes to /dashboard.
 */
export default function LoginPage() {
  const id = useId();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { toast } = useToast();
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [login, { isLoading }] = useLoginMutation();
  const [emailLink, linkState] = useEmailSignInLinkMutation();
  const passwordInput = useRef<HTMLInputElement>(null);

  const toPassword = (event: FormEvent) => {
    event.preventDefault();
    const parsed = loginEmailSchema.safeParse({ email });
    if (!parsed.success) {
      setErrors({ email: parsed.error.issues[0]?.message });
      return;
    }
    setErrors({});
    setEmail(parsed.data.email);
    setStep('password');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = loginSchema.safeParse({ email, password });
    if (!parsed.success) {
      setErrors({ password: parsed.error.issues.find((i) => i.path[0] === 'password')?.message ?? parsed.error.issues[0]?.message });
      return;
    }
    setErrors({});
    try {
      const agent = await login(parsed.data).unwrap();
      toast(LOGIN_TOASTS.welcome(agent.name));
      navigate('/dashboard');
    } catch (error) {
      toast({ ...failureToast(error as ApiError), variant: 'destructive' });
      passwordInput.current?.focus();
    }
  };

  const back = () => {
    setStep('email');
    setPassword('');
    setShowPassword(false);
    setErrors({});
    linkState.reset();
  };

  // "Email me a sign-in link": the same answer whatever the address; the link signs in the browser that opens it.
  const sendLink = async () => {
    try {
      await emailLink({ email }).unwrap();
    } catch (error) {
      toast({ ...failureToast(error as ApiError), variant: 'destructive' });
    }
  };

  return (
    <PageShell title="Agent Login">
      <GoogleLoginResultNotice result={googleResultOf(params.get('google'))} />

      {step === 'email' ? (
        <form className={styles.form} onSubmit={toPassword} noValidate aria-label="Login: email">
          <TextField
            id={`${id}-email`}
            label="Email"
            error={errors.email}
            type="email"
            autoComplete="username"
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" block>
            Continue
          </Button>
          <GoogleButton />
          <p className={styles.aside}>
            Don't have an account? <Link to="/">Sign up</Link>
          </p>
        </form>
      ) : (
        <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-label="Login: password">
          <p className={styles.aside}>
            Logging in as <strong>{email}</strong>
          </p>
          <Field id={`${id}-password`} label="Password" error={errors.password}>
            {(control) => (
              <div className={styles.passwordRow}>
                <input
                  {...control}
                  ref={passwordInput}
                  className={fieldStyles.input}
                  type={showPassword ? 'text' : 'password'}
                  autoComplete="current-password"
                  autoFocus
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
                <Button variant="ghost" aria-pressed={showPassword} onClick={() => setShowPassword((v) => !v)}>
                  {showPassword ? 'Hide' : 'Show'}
                  <VisuallyHidden> password</VisuallyHidden>
                </Button>
              </div>
            )}
          </Field>
          <Button type="submit" block busy={isLoading} disabled={isLoading}>
            {isLoading ? 'Logging in...' : 'Log In'}
          </Button>
          <div className={styles.divider}>or</div>
          {linkState.data ? (
            <Alert tone="success" testId="sign-in-link-sent">
              {linkState.data.message}
            </Alert>
          ) : (
            <Button variant="secondary" block busy={linkState.isLoading} disabled={isLoading || linkState.isLoading} onClick={() => void sendLink()}>
              {linkState.isLoading ? 'Sending...' : 'Email me a sign-in link'}
            </Button>
          )}
          <p className={styles.aside}>No password yet? The link signs you in without one.</p>
          <Button variant="secondary" block onClick={back} disabled={isLoading}>
            Back
          </Button>
        </form>
      )}

      <p className={styles.aside}>
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
    </PageShell>
  );
}

/** The spec's 'Login failed' toast; a rate limit says so, and when to try again, instead. */
function failureToast(error: ApiError): { title: string; description: string } {
  if (isApiError(error) && error.status === 429) {
    const seconds = typeof error.body?.retryAfterSeconds === 'number' ? error.body.retryAfterSeconds : null;
    return { title: LOGIN_TOASTS.failed.title, description: [error.serverMessage ?? error.message, retryAfterText(seconds)].filter(Boolean).join(' ') };
  }
  return LOGIN_TOASTS.failed;
}
