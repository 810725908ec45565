/** Spec 001 §8: the login toasts, word for word. */
export const LOGIN_TOASTS = {
  failed: { title: 'Login failed', description: 'Invalid email or password' },
  welcome: (name: string) => ({ title: 'Welcome back!', description: `Logged in as ${name}` }),
} as const;

/** When a rate-limited login may be tried again (from the 429's retryAfterSeconds / Retry-After). */
export function retryAfterText(seconds: number | null): string | null {
  if (seconds === null || seconds <= 0) return null;
  if (seconds < 60) return `Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
