import { expect, requestFailures, test } from './fixtures';

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

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the landing runs no app until the first touch: CSS rotates the backgrounds, and the first tap is held, then opens step 1', async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await page.waitForLoadState('load');
    const backdrop = page.getByTestId('landing-background').first().locator('..');
    await expect(backdrop).toHaveAttribute('data-static', '');
    const animations = await page.getByTestId('landing-background').evaluateAll((slides) => slides.map((s) => getComputedStyle(s).animationName));
    expect(animations).toHaveLength(3);
    for (const name of animations) expect(name).toMatch(/rotate-slides/);
    expect(scripts).toEqual(['/landing-boot.js']);

    await page.getByRole('main').getByRole('button', { name: 'Find my listings', exact: true }).tap();
    await expect(page.getByLabel('Full Name')).toBeVisible();
    expect(scripts.length).toBeGreaterThan(1);
  });
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

test.describe('unknown routes', () => {
  test.use({ expectedRequestFailures: requestFailures({ url: /\/(this-page-does-not-exist|dashboard\/x|admin\/x)$/, status: 404 }) });

  test('answer HTTP 404 with the 404 page, below /dashboard and /admin too', async ({ page }) => {
    for (const path of ['/this-page-does-not-exist', '/dashboard/x', '/admin/x']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeVisible();
      await expect(page.getByText('Admin Dashboard')).toHaveCount(0);
    }
  });
});
