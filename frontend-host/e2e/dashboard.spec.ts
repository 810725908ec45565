import type { Page } from '@playwright/test';
import { expect, requestFailures, test } from './fixtures';

/** A wizard-session agent (no password yet): this browser may open /dashboard?agent={id}. */
async function createAgent(page: Page, baseURL: string, name = 'Dana Whitfield') {
  const created = await page.request.post('/api/agents', { data: { name, state: 'FL', manualEntry: true }, headers: { origin: baseURL } });
  expect(created.ok(), await created.text()).toBe(true);
  return (await created.json()) as { id: number };
}

async function openDashboard(page: Page, agentId: number, name = 'Dana Whitfield') {
  await page.goto(`/dashboard?agent=${agentId}`);
  // Generous: the first load of the dashboard remote on a busy machine.
  await expect(page.getByText(`Welcome, ${name}`)).toBeVisible({ timeout: 30_000 });
}

test.describe('dashboard cards when a read fails', () => {
  test.use({
    viewport: { width: 1280, height: 900 },
    expectedRequestFailures: requestFailures(
      { url: /\/api\/auth\/me$/, status: 401 },
      { url: /\/api\/agents\/\d+\/(facebook-metrics|campaigns|leads)$/, status: 500 },
    ),
  });

  test('each card shows its own error with a Retry, and a retry that succeeds shows the card', async ({ page, baseURL }) => {
    const agent = await createAgent(page, baseURL!);
    let failing = true;
    for (const path of ['facebook-metrics', 'campaigns', 'leads']) {
      await page.route(new RegExp(`/api/agents/\\d+/${path}$`), (route) =>
        failing ? route.fulfill({ status: 500, json: { message: 'Something went wrong', code: 'internal' } }) : route.fallback(),
      );
    }
    await openDashboard(page, agent.id);
    for (const card of ['Campaign Progress', 'Property', 'Your Leads', 'Total Clicks, Total Reach and Engagements']) {
      const region = page.getByRole('region', { name: card, exact: true });
      await expect(region.getByRole('alert')).toContainText("We couldn't load");
      await expect(region.getByRole('button', { name: 'Retry' })).toBeVisible();
    }
    // Nothing spins for ever, and no page-wide banner blames the agent data.
    await expect(page.getByText(/^Loading (metrics|campaigns|leads)\.\.\.$/)).toHaveCount(0);
    await expect(page.getByText('Error loading agent data')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Contact Card' })).toContainText('Dana Whitfield');

    failing = false;
    await page.getByRole('region', { name: 'Campaign Progress' }).getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('region', { name: 'Campaign Progress' }).getByRole('progressbar')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Total Clicks' })).toBeVisible();
    await page.getByRole('region', { name: 'Your Leads' }).getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('region', { name: 'Your Leads' })).toContainText('No leads yet.');
  });

  test('metrics answered as null: the progress card shows the default 75% against the 50K goal', async ({ page, baseURL }) => {
    const agent = await createAgent(page, baseURL!);
    await page.route(/\/api\/agents\/\d+\/facebook-metrics$/, (route) => route.fulfill({ json: null }));
    await openDashboard(page, agent.id);
    const progress = page.getByRole('region', { name: 'Campaign Progress' });
    await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '75');
    await expect(progress).toContainText('50K');
    await expect(page.getByTestId('tile-total-clicks')).toHaveText('0');
  });
});

test.describe('who is logged in', () => {
  test.use({ viewport: { width: 1280, height: 900 }, expectedRequestFailures: requestFailures({ url: /\/api\/auth\/me$/, status: 401 }) });

  test('a dashboard load asks /api/auth/me once, and its 401 is an answer (the dashboard opens)', async ({ page, baseURL }) => {
    const agent = await createAgent(page, baseURL!);
    const asked: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/auth/me') asked.push(response.status());
    });
    await openDashboard(page, agent.id);
    await expect(page.getByRole('region', { name: 'Lead Notifications' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Your Leads' })).toBeVisible();
    expect(asked).toEqual([401]);
  });
});

test.describe('dashboard on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, expectedRequestFailures: requestFailures({ url: /\/api\/auth\/me$/, status: 401 }) });

  test('the delivery log is a list of cards within the screen, with Replay in reach; help opens as a bottom sheet', async ({ page, baseURL }) => {
    const agent = await createAgent(page, baseURL!);
    const failed = {
      id: 9, webhookId: 'msg_2a7f0c', kind: 'lead.created', channel: 'webhook', leadId: 4, attempt: 10, status: 'dead',
      target: 'https://hooks.example.com/a-rather-long-path/that/goes/on/and/on', responseCode: 500, responseBody: null,
      error: 'HTTP 500 from the receiver after ten attempts over a day', warning: null, durationMs: 120, createdAt: '2026-11-26T10:00:00.000Z', nextAttemptAt: null,
    };
    await page.route(/\/api\/agents\/\d+\/deliveries(\?.*)?$/, (route) => route.fulfill({ json: { items: [failed], page: 1, pageSize: 10, total: 1 } }));
    await openDashboard(page, agent.id);
    const row = page.getByTestId('delivery-row');
    await expect(row).toBeVisible();
    // A card: each value under its column's name (the names are the cells' labels, drawn by CSS).
    await expect(row.locator('td[data-label="Last error / answer"]')).toContainText('HTTP 500');
    expect(await row.locator('td[data-label="Status"]').evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Status"');
    const replay = row.getByRole('button', { name: /^Replay/ });
    await expect(replay).toBeVisible();
    const box = (await replay.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: 'Help: Zapier Integration' }).click();
    const chat = page.getByRole('region', { name: 'Zapier Integration' });
    await expect(chat).toBeVisible();
    const sheet = (await chat.boundingBox())!;
    expect(Math.round(sheet.width)).toBe(390);
    expect(Math.round(sheet.y + sheet.height)).toBe(844);
  });
});
