import { GOOGLE_LOGIN_DISABLED_MESSAGE, GOOGLE_LOGIN_MESSAGES, GOOGLE_LOGIN_RESULTS, type GoogleLoginResult } from '@app/contracts';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button, buttonClass } from '@app/ui';
import { useGetRuntimeConfigQuery } from '../runtime-config/runtimeConfigApi';
import styles from './Login.module.css';

/** The result Google's return (/login?google=…) reports, when it is one the page knows. */
export function googleResultOf(value: string | null): GoogleLoginResult | null {
  return (GOOGLE_LOGIN_RESULTS as readonly string[]).includes(value ?? '') ? (value as GoogleLoginResult) : null;
}

/** What Google's return says: no account (sign up instead) or a failure. */
export function GoogleLoginResultNotice({ result }: { result: GoogleLoginResult | null }) {
  if (!result) return null;
  return (
    <Alert tone={result === 'no-account' ? 'info' : 'danger'} className={styles.notice} testId="google-login-result">
      {GOOGLE_LOGIN_MESSAGES[result]}
      {result === 'no-account' && (
        <>
          {' '}
          <Link to="/">Sign up</Link>
        </>
      )}
    </Alert>
  );
}

/** 'Continue with Google' navigates to /api/auth/google; without a configured client it is disabled, with the reason. */
export function GoogleButton() {
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
