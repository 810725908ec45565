import {
  GOOGLE_LOGIN_DISABLED_MESSAGE,
  GOOGLE_LOGIN_MESSAGES,
  GOOGLE_LOGIN_RESULTS,
  loginEmailSchema,
  loginSchema,
  type GoogleLoginResult,
} from '@app/contracts';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Field, VisuallyHidden, buttonClass, fieldStyles } from '@app/ui';
import { PageShell } from '../../components/PageShell';
import { isApiError, type ApiError } from '../../store/api';
import { useEmailSignInLinkMutation, useLoginMutation } from '../auth/authApi';
import { useGetRuntimeConfigQuery } from '../runtime-config/runtimeConfigApi';
import { useToast } from '../toast/useToast';
import { LOGIN_TOASTS, retryAfterText } from './loginMessages';
import styles from './Login.module.css';

type Step = 'email' | 'password';

function googleResultOf(value: string | null): GoogleLoginResult | null {
  return (GOOGLE_LOGIN_RESULTS as readonly string[]).includes(value ?? '') ? (value as GoogleLoginResult) : null;
}

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
  const googleResult = googleResultOf(params.get('google'));

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
      {googleResult && (
        <Alert tone={googleResult === 'no-account' ? 'info' : 'danger'} className={styles.notice} testId="google-login-result">
          {GOOGLE_LOGIN_MESSAGES[googleResult]}
          {googleResult === 'no-account' && (
            <>
              {' '}
              <Link to="/">Sign up</Link>
            </>
          )}
        </Alert>
      )}

      {step === 'email' ? (
        <form className={styles.form} onSubmit={toPassword} noValidate aria-label="Login: email">
          <Field id={`${id}-email`} label="Email" error={errors.email}>
            <input
              id={`${id}-email`}
              className={fieldStyles.input}
              type="email"
              autoComplete="username"
              autoFocus
              value={email}
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? `${id}-email-error` : undefined}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Field>
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
            <div className={styles.passwordRow}>
              <input
                id={`${id}-password`}
                ref={passwordInput}
                className={fieldStyles.input}
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                autoFocus
                value={password}
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={errors.password ? `${id}-password-error` : undefined}
                onChange={(e) => setPassword(e.target.value)}
              />
              <Button variant="ghost" aria-pressed={showPassword} onClick={() => setShowPassword((v) => !v)}>
                {showPassword ? 'Hide' : 'Show'}
                <VisuallyHidden> password</VisuallyHidden>
              </Button>
            </div>
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

/** 'Continue with Google' navigates to /api/auth/google; without a configured client it is disabled, with the reason. */
function GoogleButton() {
  const config = useGetRuntimeConfigQuery();
  const reasonId = useId();
  const enabled = config.data?.googleLoginEnabled === true;
  if (enabled) {
    return (
      <a className={buttonClass('secondary', { block: true })} href="/api/auth/google">
        Continue with Google
      </a>
    );
  }
  return (
    <>
      <Button variant="secondary" block disabled aria-describedby={config.data ? reasonId : undefined}>
        Continue with Google
      </Button>
      {config.data && (
        <p id={reasonId} className={styles.reason}>
          {GOOGLE_LOGIN_DISABLED_MESSAGE}
        </p>
      )}
    </>
  );
}
