import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, requestFailures, test } from './fixtures';

/**
 * Issue 24's bar for the four main pages, on a desktop and on a 390 px phone: axe finds no serious or critical
 * violation, and no page is wider than the screen (nothing to scroll sideways).
 */
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-password';
const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
] as const;

async function seriousViolations(page: Page): Promise<string[]> {
  // The OpenStreetMap frame is someone else's page (and offline here).
  const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** How far the page reaches past the right edge of the screen, in CSS pixels (0: nothing to scroll sideways). */
function overflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth);
}

async function check(page: Page) {
  expect(await overflow(page), 'page wider than the viewport').toBeLessThanOrEqual(0);
  expect(await seriousViolations(page)).toEqual([]);
}

test.describe.configure({ timeout: 120_000 });

for (const { name, ...device } of VIEWPORTS) {
  test.describe(`axe and width, ${name}`, () => {
    test.use({
      ...device,
      expectedRequestFailures: requestFailures({ url: /openstreetmap\.org/ }, { url: /\/api\/auth\/me$/, status: 401 }),
    });

    test('the landing page', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Find my listings' }).first()).toBeVisible();
      await check(page);
    });

    test('a listing page', async ({ page, baseURL }) => {
      const headers = { origin: baseURL! };
      const member = await (await page.request.post('/api/mls/search-agent', { data: { name: 'Sarah Johnson', state: 'FL' }, headers })).json();
      const agent = await (await page.request.post('/api/agents', { data: member, headers })).json();
      expect((await page.request.post('/api/mls/load', { data: { agentId: agent.id, mlsId: member.mlsId }, headers })).ok()).toBe(true);
      await page.goto('/listing/FL2600100');
      await expect(page.getByRole('heading', { name: 'Schools' })).toBeVisible();
      await check(page);
    });

    test('the dashboard', async ({ page, baseURL }) => {
      const created = await page.request.post('/api/agents', { data: { name: 'Dana Whitfield', state: 'FL', manualEntry: true }, headers: { origin: baseURL! } });
      const agent = (await created.json()) as { id: number };
      await page.goto(`/dashboard?agent=${agent.id}`);
      await expect(page.getByText('Welcome, Dana Whitfield')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole('region', { name: 'Lead Notifications' })).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0);
      await check(page);
    });

    test('the admin dashboard', async ({ page, baseURL }) => {
      await page.request.post('/api/agents', { data: { name: 'Avery Axetest', state: 'FL', manualEntry: true }, headers: { origin: baseURL! } });
      await page.goto('/admin');
      await expect(page.getByText('Enter admin password to continue')).toBeVisible({ timeout: 60_000 });
      await check(page);
      await page.getByLabel('Password').fill(ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Access Dashboard' }).click();
      await expect(page.getByTestId('admin-agent-row').first()).toBeVisible();
      await check(page);
    });
  });
}
