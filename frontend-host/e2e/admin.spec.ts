import { expect, test } from './fixtures';

const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-password';

test.describe('admin remote deployed on its own', () => {
  test.setTimeout(90_000);
  test('gate → table → filter → expand → Login As in a new tab, from the separately served remote', async ({ page, request, baseURL }) => {
    // Two agents made the way the wizard makes them.
    const stamp = Date.now();
    const names = [`Avery Admintest ${stamp}`, `Blake Admintest ${stamp}`];
    const ids: number[] = [];
    for (const name of names) {
      const res = await request.post('/api/agents', { data: { name, state: 'FL', manualEntry: true }, headers: { Origin: baseURL! } });
      expect(res.status()).toBe(201);
      ids.push((await res.json()).id);
    }

    // The host's runtime config points at the remote's own origin (ADMIN_REMOTE_URL), and it loads from there.
    const config = await (await request.get('/api/runtime-config')).json();
    const entry = new URL(config.remotes.admin.entry);
    expect(entry.origin).not.toBe(new URL(baseURL!).origin);
    const remoteEntry = page.waitForResponse((r) => r.url() === entry.href);
    await page.goto('/admin');
    expect((await remoteEntry).status()).toBe(200);

    // Gate.
    // The first cross-origin load of the remote has taken ~20 s on this shared 2-core machine (see report).
    await expect(page.getByText('Enter admin password to continue')).toBeVisible({ timeout: 60_000 });
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Access Dashboard' }).click();
    await expect(page.getByText('Welcome Admin')).toBeVisible();
    await expect(page.getByText('Successfully logged into admin dashboard')).toBeVisible();

    // Table with totals.
    await expect(page.getByTestId('admin-agent-row').first()).toBeVisible();
    await expect(page.getByTestId('total-Agents')).not.toHaveText('—');

    // Filter on the server: search by name.
    await page.getByLabel('Search by name or email').fill(`Avery Admintest ${stamp}`);
    await expect(page.getByTestId('admin-agent-row')).toHaveCount(1);
    await expect(page.getByTestId('admin-agent-row')).toContainText(names[0]);
    await expect(page.getByTestId('total-Agents')).toHaveText('1');
    await page.getByLabel('Status').selectOption('active');
    await expect(page.getByText('No agents match your filter criteria')).toBeVisible();
    await page.getByLabel('Status').selectOption('all');
    await expect(page.getByTestId('admin-agent-row')).toHaveCount(1);

    // Expand the campaign details.
    await page.getByRole('button', { name: `Show campaigns of ${names[0]}` }).click();
    await expect(page.getByRole('button', { name: `Hide campaigns of ${names[0]}` })).toHaveAttribute('aria-expanded', 'true');

    // Login As opens the agent's dashboard in a new tab.
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Login As' }).click();
    await expect(page.getByText('Opening Agent Dashboard')).toBeVisible();
    await expect(page.getByText(`Logging in as ${names[0]}...`)).toBeVisible();
    const tab = await popup;
    await tab.waitForURL(/\/dashboard/);
    const me = await tab.request.get('/api/auth/me');
    expect(await me.json()).toEqual({ id: ids[0], name: names[0], impersonatedBy: 'admin' });
  });
});
