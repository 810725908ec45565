/**
 * The host app's routes (spec 001 §2), one list for the browser's router and the server: the server
 * answers any other path with the app shell and a 404 status (the shell shows the 404 page), so an unknown
 * route is a real 404 to crawlers and link checkers, not a "soft" one. `:name` is one path segment.
 */
export const APP_ROUTES = {
  wizard: '/',
  checkout: '/checkout/:campaignId',
  success: '/success',
  listing: '/listing/:mlsId',
  manualListing: '/manual-listing/:mlsId',
  login: '/login',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  dashboard: '/dashboard',
  admin: '/admin',
  overview: '/overview',
  terms: '/terms',
  privacy: '/privacy',
} as const;

export type AppRouteName = keyof typeof APP_ROUTES;

const patterns = Object.values(APP_ROUTES).map((route) => route.split('/').filter(Boolean));

/** True when the path is one of APP_ROUTES (a trailing slash is ignored, as the router does). */
export function isAppRoute(pathname: string): boolean {
  const segments = pathname.split('/').filter(Boolean);
  return patterns.some(
    (pattern) => pattern.length === segments.length && pattern.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i])),
  );
}
