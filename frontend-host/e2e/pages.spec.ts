import { expect, test } from './fixtures';

test('the landing page renders', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('the prerendered landing buttons stay put while the app starts, and a tap before it has loaded opens step 1', async ({
  page,
}) => {
  // Hold back the wizard's code so the tap lands on the prerendered page, before hydration ends.
  await page.route(/\/assets\/CreationFlowPage-[^/]+\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  const button = page.getByRole('main').getByRole('button', { name: 'Find my listings', exact: true });
  const before = await button.boundingBox();
  await button.click();
  await expect(page.getByLabel('Full Name')).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('main').getByRole('button', { name: 'Find my listings', exact: true })).toBeVisible();
  expect(await button.boundingBox()).toEqual(before);
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
