import type { APIRequestContext, Page, Request } from '@playwright/test';
import { expect, requestFailures, test } from './fixtures';
import { agentDevice, emailsTo, linkTokenTo } from './accounts';

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const PASSWORD = 'sunny-porch-42';

/**
 * An agent with an account, made the way the product makes one (wizard agent, account setup, emailed link),
 * in an API client of its own: the page's browser stays logged out.
 */
async function agentWithAccount(request: APIRequestContext, baseURL: string, name: string): Promise<{ id: number; name: string; email: string }> {
  const headers = agentDevice(baseURL);
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}@example.com`;
  const created = await request.post('/api/agents', { data: { name, state: 'FL', manualEntry: true }, headers });
  expect(created.ok(), await created.text()).toBe(true);
  const agent = (await created.json()) as { id: number };
  const setup = await request.put(`/api/agents/${agent.id}`, { data: { email, password: PASSWORD }, headers });
  expect(setup.status(), await setup.text()).toBe(202);
  const verified = await request.post('/api/auth/verify-email', { data: { token: await linkTokenTo(email) }, headers });
  expect(verified.ok(), await verified.text()).toBe(true);
  return { id: agent.id, name, email };
}

/** Every request the page makes for dashboard remote code. */
function dashboardCodeRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/remotes/dashboard/')) seen.push(r);
  });
  return seen;
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

test.describe('login', () => {
  // Logged out, the dashboard's auth/me answers 401 (read as "nobody"); a wrong password answers 401 too.
  // (One entry: test.use would read a two-element array as a [value, options] fixture tuple.)
  test.use({ expectedRequestFailures: requestFailures({ url: /\/api\/auth\/(me|login)$/, status: 401 }) });

  test('two steps, with validation, show/hide and Back, then /dashboard with the welcome text', async ({ page, request, baseURL }) => {
    const agent = await agentWithAccount(request, baseURL!, 'Lena Login');
    const remote = dashboardCodeRequests(page);
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Agent Login' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toBeVisible();

    // Step 1: the email.
    await page.getByRole('textbox', { name: 'Email' }).fill('lena-at-example');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await page.getByRole('textbox', { name: 'Email' }).fill(agent.email);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();

    // Step 2: the password, hidden until shown.
    const password = page.getByLabel('Password', { exact: true });
    await expect(password).toBeFocused();
    await expect(page.getByText(`Logging in as ${agent.email}`)).toBeVisible();
    await password.fill('short');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await expect(page.getByRole('button', { name: 'Hide password' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();

    // Back returns to step 1 with the email kept.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(agent.email);
    await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
    expect(remote, 'no dashboard code before login').toEqual([]);

    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(toasts(page).getByText('Welcome back!')).toBeVisible();
    await expect(toasts(page).getByText(`Logged in as ${agent.name}`)).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`Welcome, ${agent.name}`)).toBeVisible();
    expect(remote.length).toBeGreaterThan(0);
  });

  test('a wrong password shows the Login failed toast and stays on the password step', async ({ page, request, baseURL }) => {
    const agent = await agentWithAccount(request, baseURL!, 'Wes Wrong');
    await page.goto('/login');
    await logIn(page, agent.email, 'not-the-password');
    await expect(toasts(page).getByText('Login failed')).toBeVisible();
    await expect(toasts(page).getByText('Invalid email or password')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
    // An unknown email gets the very same answer.
    await page.getByRole('button', { name: 'Back' }).click();
    await logIn(page, `nobody.${Date.now()}@example.com`, 'not-the-password');
    await expect(toasts(page).getByText('Invalid email or password')).toBeVisible();
  });

  test('Continue with Google is disabled with its reason when no Google client is configured', async ({ page }) => {
    await page.goto('/login');
    const google = page.getByRole('button', { name: 'Continue with Google' });
    await expect(google).toBeDisabled();
    await expect(google).toHaveAccessibleDescription(/Google login is not available/);
    // The route itself says so too, as JSON.
    const res = await page.request.get('/api/auth/google', { maxRedirects: 0 });
    expect(res.status()).toBe(503);
    expect((await res.json()).code).toBe('agents.google_login_disabled');
  });

  test('back from Google without an account, the page says so and offers Sign up', async ({ page }) => {
    await page.goto('/login?google=no-account');
    const notice = page.getByTestId('google-login-result');
    await expect(notice).toContainText('There is no account for this Google email address yet.');
    await expect(notice.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/');
  });
});

test.describe('login, rate limited', () => {
  test.use({ expectedRequestFailures: requestFailures({ url: /\/api\/auth\/login$/, status: 429 }) });

  test('a rate-limited login shows the server message and when to try again', async ({ page, request, baseURL }) => {
    const agent = await agentWithAccount(request, baseURL!, 'Rita Rate');
    // Ten tries per address and email in 15 minutes; spent here through the API.
    for (let i = 0; i < 10; i++) {
      const res = await page.request.post('/api/auth/login', { data: { email: agent.email, password: `wrong-${i}-password` }, headers: { origin: baseURL! } });
      expect(res.status()).toBe(401);
    }
    await page.goto('/login');
    await logIn(page, agent.email, PASSWORD);
    await expect(toasts(page).getByText('Login failed')).toBeVisible();
    await expect(toasts(page).getByText(/^Too many requests\. Please wait a moment and try again\. Try again in 1[45] minutes\.$/)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('the /dashboard gate', () => {
  test.use({ expectedRequestFailures: requestFailures({ url: /\/api\/auth\/me$/, status: 401 }) });

  test('a logged-out visitor is sent to /login and downloads no dashboard code', async ({ page }) => {
    const remote = dashboardCodeRequests(page);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Agent Login' })).toBeVisible();
    // Someone else's agent by id: the same.
    await page.goto('/dashboard?agent=1');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('textbox', { name: 'Email' })).toBeVisible();
    expect(remote.map((r) => r.url())).toEqual([]);
  });

  test('after logout, /dashboard goes to /login again without the remote', async ({ page, request, baseURL }) => {
    const agent = await agentWithAccount(request, baseURL!, 'Otto Logout');
    await page.goto('/login');
    await logIn(page, agent.email, PASSWORD);
    await expect(page.getByText(`Welcome, ${agent.name}`)).toBeVisible();

    // The Logout button belongs to the dashboard remote (its own journey); here the API call, in this browser.
    expect((await page.request.post('/api/auth/logout', { headers: { origin: baseURL! } })).ok()).toBe(true);
    const remote = dashboardCodeRequests(page);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    expect(remote).toEqual([]);
  });
});

test.describe('the emailed sign-in link (the email the MLS publishes is the trust anchor)', () => {
  // Signed out, the page's auth/me answers 401 (read as "nobody").
  test.use({ expectedRequestFailures: requestFailures({ url: /\/api\/auth\/me$/, status: 401 }) });

  test('"Email me a sign-in link" on one device; the link, opened in a second browser, signs that one in and lands on /dashboard?agent={id}', async ({
    page,
    browser,
    baseURL,
  }) => {
    // David Kim (NY) is an identity because a wizard browser found him in the MLS; nobody has verified him (no other
    // journey signs him in: the autopilot journey verifies Emily Rodriguez, and the run shares one database).
    const headers = { origin: baseURL! };
    const found = await (await page.request.post('/api/mls/search-agent', { data: { name: 'David Kim', state: 'NY' }, headers })).json();
    const agent = await (await page.request.post('/api/agents', { data: { ...found, brokerage: null, phone: null }, headers })).json();
    expect(agent).toMatchObject({ name: 'David Kim', verified: false, access: 'draft' });

    // On the laptop: /login, her email (the one the MLS publishes), then the link instead of a password.
    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Email' }).fill(found.email);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const before = emailsTo(found.email).length;
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect(page.getByTestId('sign-in-link-sent')).toContainText('If this email address belongs to an agent here, we have sent it a sign-in link.');
    const token = await linkTokenTo(found.email, before);

    // On the phone (another browser): the link signs it in, no password, and opens her dashboard.
    const phone = await browser.newContext({ baseURL });
    try {
      const tab = await phone.newPage();
      await tab.goto(`/verify-email?token=${token}`);
      await tab.getByRole('button', { name: 'Confirm and sign in' }).click();
      await tab.waitForURL((url) => url.pathname === '/dashboard' && url.searchParams.get('agent') === String(agent.id));
      await expect(tab.getByText('Welcome, David Kim')).toBeVisible({ timeout: 30_000 });
      expect(await (await tab.request.get('/api/auth/me')).json()).toEqual({ id: agent.id, name: 'David Kim' });
      // The link works once.
      await tab.goto(`/verify-email?token=${token}`);
      await tab.getByRole('button', { name: 'Confirm and sign in' }).click();
      await expect(tab.getByRole('alert')).toContainText('This link is invalid, has expired or has already been used.');
    } finally {
      await phone.close();
    }

    // The laptop that asked is not signed in by a link opened elsewhere.
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });
});
