import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { emailsTo, linkTokenTo } from './accounts';

/*
 * Autopilot, as an agent lives it: turn it on and save a test card on the dashboard; the MLS (the demo feed,
 * changed and polled through the ops CLI as an MLS and the minute's job would) reports a new listing and the
 * dashboard shows its scheduled draft; the emailed Skip link skips it; a second new listing launches on its own
 * after the (shortened) veto window; the listing goes pending and the ad is paused. The e2e server runs with
 * AUTOPILOT_TIME_SCALE=0.002: a 1-hour window lasts 7.2 seconds.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const port = process.env.E2E_PORT ?? '3210';
const note = (ext: string) => fs.readFileSync(path.join(os.tmpdir(), `la-e2e-${port}.${ext}`), 'utf8').trim();
const AGENT = { name: 'Emily Rodriguez', state: 'TX', mlsId: 'TX52890' };

/** The ops CLI against the e2e product's own database. */
function ops(...args: string[]): string {
  return execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'ops.mjs'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: note('datadir'), EMBEDDED_PG_PORT: note('pgport'), LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
}

/** The MLS changes, and the feed is polled: returns the listing's key. */
function mlsChange(change: string, listing?: string): string {
  const out = ops('mls', 'demo', change, '--agent', AGENT.mlsId, ...(listing ? ['--listing', listing] : []));
  const key = /'(TX\d{7,})'/.exec(out)?.[1];
  expect(key, out).toBeTruthy();
  ops('mls', 'poll');
  return key!;
}

/** The newest autopilot email to `to` whose subject starts so, QP-decoded. */
function emailBody(to: string, subject: string): string | null {
  const outbox = path.join(note('datadir'), 'outbox');
  if (!fs.existsSync(outbox)) return null;
  const mails = fs
    .readdirSync(outbox)
    .sort()
    .reverse()
    .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
    .filter((m) => m.includes(`To: ${to}`) && m.includes(`Subject: ${subject}`));
  return mails[0] ? mails[0].replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))) : null;
}

async function reloadUntil(page: Page, check: () => Promise<boolean>, timeout = 60_000) {
  await expect
    .poll(
      async () => {
        await page.reload();
        await expect(page.getByTestId('autopilot-card').getByRole('heading', { name: 'Autopilot' })).toBeVisible({ timeout: 30_000 });
        return check();
      },
      { timeout, intervals: [1000, 2000, 3000] },
    )
    .toBe(true);
}

test.describe('Autopilot', () => {
  test.describe.configure({ timeout: 240_000 });
  test.use({
    viewport: { width: 1280, height: 1000 },
    expectedRequestFailures: [[{ url: /\/api\/auth\/me$/, status: 401 }, { url: /openstreetmap\.org/ }], { scope: 'test' }],
  });

  test('turn it on and save a card; a new listing is scheduled; Skip from the email; the next one launches after the window; pending pauses it', async ({ page, baseURL }) => {
    // The feed's first pass copies what the MLS already has: only what changes after it is news.
    ops('mls', 'poll');

    // An agent found in the MLS by this browser's wizard, then signed in here with the link emailed to the address
    // the MLS publishes (autopilot is the signed-in agent's, and its emails go to a verified address only).
    const headers = { origin: baseURL! };
    const found = await page.request.post('/api/mls/search-agent', { data: { name: AGENT.name, state: AGENT.state }, headers });
    expect(found.ok(), await found.text()).toBe(true);
    const member = await found.json();
    const created = await page.request.post('/api/agents', { data: { ...member, brokerage: null, phone: null }, headers });
    expect(created.ok(), await created.text()).toBe(true);
    const agent = await created.json();
    const before = emailsTo(member.email).length;
    expect((await page.request.post('/api/auth/sign-in-link', { data: { email: member.email }, headers })).status()).toBe(202);
    const opened = await page.request.post('/api/auth/verify-email', { data: { token: await linkTokenTo(member.email, before) }, headers });
    expect(opened.ok(), await opened.text()).toBe(true);

    // 1. Turn autopilot on (a 1-hour veto window), and save a test card.
    await page.goto(`/dashboard?agent=${agent.id}`);
    const card = page.getByTestId('autopilot-card');
    await expect(card.getByRole('heading', { name: 'Autopilot' })).toBeVisible({ timeout: 30_000 });
    await expect(card.getByText('No card saved')).toBeVisible();
    await card.getByRole('switch', { name: /Autopilot/ }).check();
    await card.getByLabel('Veto window (hours)').fill('1');
    await card.getByRole('button', { name: 'Save autopilot' }).click();
    await expect(page.getByRole('region', { name: 'Notifications' }).getByText('Autopilot settings saved')).toBeVisible();

    await card.getByRole('link', { name: 'Add a card' }).click();
    await expect(page.getByRole('heading', { name: 'Add a card' })).toBeVisible();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByTestId('saved-card')).toHaveText('Visa •••• 4242');
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await expect(card.getByTestId('autopilot-saved-card')).toContainText('Visa •••• 4242', { timeout: 30_000 });

    // 2. A new listing in the MLS: the dashboard shows its scheduled draft, counting down.
    mlsChange('new-listing');
    await reloadUntil(page, async () => (await card.getByTestId('autopilot-scheduled').count()) === 1);
    const scheduled = card.getByTestId('autopilot-scheduled');
    await expect(scheduled).toContainText('Just Listed');
    await expect(scheduled.getByTestId('autopilot-countdown')).toContainText('Launches in');

    // 3. The email's Skip link: no login needed, it asks first, then skips.
    let body: string | null = null;
    await expect.poll(() => (body = emailBody(member.email, 'Just Listed ad for')), { timeout: 20_000 }).not.toBeNull();
    const skip = /Skip: (http\S+)/.exec(body!)![1];
    const visitor = await page.context().browser()!.newContext();
    const linkPage = await visitor.newPage();
    await linkPage.goto(new URL(new URL(skip).pathname, baseURL).toString());
    await expect(linkPage.getByRole('heading', { name: 'Skip this ad?' })).toBeVisible();
    await linkPage.getByRole('button', { name: 'Skip this ad' }).click();
    await expect(linkPage.getByRole('status')).toHaveText('Skipped: this ad will not run, and nothing was charged.');
    await visitor.close();
    await reloadUntil(page, async () => (await card.getByTestId('autopilot-history').filter({ hasText: 'Skipped' }).count()) === 1);
    await expect(card.getByTestId('autopilot-history').filter({ hasText: 'Skipped' })).toContainText('Skipped from the email');

    // 4. A second new listing launches on its own once its (7.2-second) window is over.
    const second = mlsChange('new-listing');
    await reloadUntil(page, async () => (await card.getByTestId('autopilot-history').filter({ hasText: 'Launched' }).count()) === 1, 90_000);

    // 5. The home goes under contract: the running ad is paused at the ad platform.
    mlsChange('pending', second);
    await reloadUntil(page, async () => (await card.getByTestId('autopilot-history').filter({ hasText: 'Paused' }).count()) === 1, 90_000);
    await expect(card.getByTestId('autopilot-history').filter({ hasText: 'Paused' })).toContainText('the home went under contract');
  });
});
