import { expect, pathnameIs, requestFailures, test } from './fixtures';
import { signedInAgent } from './accounts';

test.describe('admin remote', () => {
  test.use({ expectedRequestFailures: requestFailures({ url: /\/api\/admin\/login$/, status: 401 }) });

  test('/admin loads the admin remote at runtime and rejects a wrong password', async ({ page }) => {
    const remoteEntry = page.waitForResponse(pathnameIs('/remotes/admin/remoteEntry.js'));
    await page.goto('/admin');
    expect((await remoteEntry).status()).toBe(200);

    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByText('Enter admin password to continue')).toBeVisible();

    await page.getByRole('button', { name: 'Access Dashboard' }).click();
    await expect(page.getByText('Password is required')).toBeVisible();

    await page.getByLabel('Password').fill('definitely-not-the-admin-password');
    await page.getByRole('button', { name: 'Access Dashboard' }).click();
    await expect(page.getByText('Login Failed')).toBeVisible();
    await expect(page.getByText('Invalid admin password')).toBeVisible();
    await expect(page.getByText('Enter admin password to continue')).toBeVisible();
  });
});

test.describe('remote that cannot be loaded', () => {
  // Same origin (the CSP admits only our own origin and the configured remote origins), where
  // nothing is deployed: the server answers 404, as for a remote that was never uploaded.
  const deadEntry = '/remotes/admin/not-deployed/remoteEntry.js';
  test.use({ expectedRequestFailures: requestFailures({ url: /\/remotes\/admin\/not-deployed\/remoteEntry\.js$/, status: 404 }) });

  test('shows an error panel, and Retry loads it once the runtime config is fixed', async ({ page }) => {
    await page.route('**/api/runtime-config', async (route) => {
      const response = await route.fetch();
      const config = await response.json();
      config.remotes.admin.entry = deadEntry;
      await route.fulfill({ response, json: config });
    });
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'This section could not be loaded' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText(deadEntry);

    await page.unroute('**/api/runtime-config');
    const remoteEntry = page.waitForResponse(pathnameIs('/remotes/admin/remoteEntry.js'));
    await page.getByRole('button', { name: 'Retry' }).click();
    expect((await remoteEntry).status()).toBe(200);
    await expect(page.getByText('Enter admin password to continue')).toBeVisible();
  });
});

test.describe('dashboard remote', () => {
  test('Select Agent lists the agent this browser is signed in as (the dashboard is the signed-in agent\'s)', async ({ page, baseURL }) => {
    // A wizard agent alone opens no dashboard: the browser must be signed in (here by the emailed link, opened in it).
    const agent = await signedInAgent(page.request, baseURL!, { name: 'Dana Whitfield' });

    const remoteEntry = page.waitForResponse(pathnameIs('/remotes/dashboard/remoteEntry.js'));
    await page.goto('/dashboard');
    expect((await remoteEntry).status()).toBe(200);

    // The signed-in agent is selected at once; back to the selection, Select Agent lists it.
    await expect(page.getByText('Welcome, Dana Whitfield')).toBeVisible();
    await page.getByRole('link', { name: '← Back to agent selection' }).click();
    await expect(page.getByRole('heading', { name: 'Agent Dashboard' })).toBeVisible();
    const select = page.getByRole('combobox', { name: 'Select Agent' });
    await expect(select).toBeVisible();
    await expect(select.locator('option')).toContainText(['Dana Whitfield (FL)']);

    await page.getByRole('button', { name: 'View Dashboard' }).click();
    await expect(page.getByText('Please select an agent')).toBeVisible();

    await select.selectOption({ label: 'Dana Whitfield (FL)' });
    await page.getByRole('button', { name: 'View Dashboard' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard\\?agent=${agent.id}$`));
    await expect(page.getByText('Welcome, Dana Whitfield')).toBeVisible();
  });
});
