import { expect, test } from './fixtures';

test('the landing page renders', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('/overview describes the 5-step flow', async ({ page }) => {
  await page.goto('/overview');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/under 3 minutes/);
  const steps = page.getByRole('list').filter({ has: page.getByRole('heading', { level: 3 }) }).first();
  await expect(steps.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) })).toHaveCount(5);
  for (const [index, name] of [
    'Agent registration',
    'Listing selection',
    'Targeting setup',
    'Pricing and checkout',
    'Campaign launch',
  ].entries()) {
    await expect(page.getByText(`Step ${index + 1}: ${name}`)).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Promote a listing' })).toHaveAttribute('href', '/');
});

test('an unknown route shows the 404 page', async ({ page }) => {
  await page.goto('/this-page-does-not-exist');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
});
