/**
 * A token's value as the page computes it, for places CSS cannot reach (Stripe Elements draws its
 * fields in an iframe and takes plain colour values). Browser only: call it outside render on the
 * server. Answers the fallback when the token is not defined.
 */
export function tokenValue(name: `--ui-${string}`, fallback = ''): string {
  if (typeof document === 'undefined') return fallback;
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}
