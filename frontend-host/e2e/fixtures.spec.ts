import { expect, requestFailures, test } from './fixtures';

// The strict-console fixture lets through exactly the failures a test declares, however many. Declared as a bare
// list of two, Playwright read the second item as fixture options and the fixture got the first item alone, so the
// first console error failed the test with "expected.some is not a function" (checkout.spec.ts on a busy machine).
test.describe('declared request failures', () => {
  test.use({
    expectedRequestFailures: requestFailures(
      { url: /\/api\/e2e-missing-one$/, status: 404 },
      { url: /\/api\/e2e-missing-two$/, status: 404 },
    ),
  });

  test('every declared failure is let through, the second as well as the first', async ({ page }) => {
    await page.goto('/terms');
    const statuses = await page.evaluate(async () =>
      Promise.all(['/api/e2e-missing-one', '/api/e2e-missing-two'].map(async (url) => (await fetch(url)).status)),
    );
    expect(statuses).toEqual([404, 404]);
  });
});
