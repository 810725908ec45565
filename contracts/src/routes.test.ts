import { isAppRoute } from './routes.js';

describe('app routes', () => {
  it.each(['/', '/checkout/12', '/success', '/listing/FL1', '/manual-listing/MANUAL-1', '/login', '/dashboard', '/dashboard/', '/admin', '/overview', '/terms'])(
    '%s is a route',
    (path) => expect(isAppRoute(path)).toBe(true),
  );

  it.each(['/this-page-does-not-exist', '/dashboard/x', '/admin/x', '/checkout', '/checkout/1/2', '/listing', '/login/extra'])('%s is not', (path) =>
    expect(isAppRoute(path)).toBe(false),
  );
});
