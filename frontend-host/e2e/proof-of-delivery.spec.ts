import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { makePng } from './png';

/**
 * Proof the ad ran (issue 26), the whole journey, on a product of its own: campaign time scaled
 * (CAMPAIGN_TIME_SCALE: a 10-day flight lasts about 43 s; production refuses a scale, so this server runs with
 * NODE_ENV=test) and a sandbox that under-delivers every campaign. The agent pays for a campaign, chooses
 * account credit, the final report email arrives and its seller link opens without a login, the credit shows
 * on the dashboard, and the next checkout uses it.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PORT = Number(process.env.E2E_PORT ?? 3210) + 1;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const SCALE = '0.00005';

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = spawn(process.execPath, [path.join(ROOT, 'scripts', 'e2e-server.mjs')], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, E2E_PORT: String(PORT), E2E_ADMIN_REMOTE_PORT: '', E2E_NODE_ENV: 'test', CAMPAIGN_TIME_SCALE: SCALE, SANDBOX_UNDERDELIVERY_RATE: '1' },
  });
  const until = Date.now() + 110_000;
  for (;;) {
    const ok = await fetch(`${ORIGIN}/api/health`).then((r) => r.ok).catch(() => false);
    if (ok) break;
    if (Date.now() > until) throw new Error('the scaled product did not start');
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((r) => server!.once('exit', r));
  server.kill('SIGTERM');
  await exited;
});

test.use({ baseURL: ORIGIN });

/** Emails the scaled product wrote to its outbox for `to`, oldest first, quoted-printable undone. */
function emailsTo(to: string): string[] {
  const dataDir = fs.readFileSync(path.join(os.tmpdir(), `la-e2e-${PORT}.datadir`), 'utf8').trim();
  const outbox = path.join(dataDir, 'outbox');
  if (!fs.existsSync(outbox)) return [];
  return fs
    .readdirSync(outbox)
    .sort()
    .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((m) => m.includes(`To: ${to}`));
}

async function post<T>(page: Page, url: string, data: Record<string, unknown>, method: 'post' | 'put' = 'post'): Promise<{ status: number; body: T }> {
  const res = await page.request[method](url, { data, headers: { origin: ORIGIN } });
  expect(res.ok(), `${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return { status: res.status(), body: (await res.json()) as T };
}

/** A verified agent with a password, logged in in this page's browser, and a listing with a photo. */
async function agentWithListing(page: Page) {
  const email = `proof.${Date.now()}@example.com`;
  const agent = (await post<{ id: number }>(page, '/api/agents', { name: 'Paula Proof', state: 'FL', manualEntry: true })).body;
  await post(page, `/api/agents/${agent.id}`, { email, password: 'correct-horse-battery' }, 'put');
  await expect.poll(() => emailsTo(email).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const token = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(emailsTo(email)[0]!)![1]!;
  await post(page, '/api/auth/verify-email', { token });
  const signed = (await post<{ uploadURL: string }>(page, '/api/objects/upload', {})).body;
  const put = await page.request.put(signed.uploadURL, { data: makePng(640, 480, [37, 99, 235]), headers: { 'content-type': 'image/png', origin: ORIGIN } });
  expect(put.ok()).toBe(true);
  const imageUrl = `/objects/uploads/${new URL(signed.uploadURL).pathname.split('/').pop()}`;
  const listing = (
    await post<{ id: number }>(page, '/api/listings', {
      agentId: agent.id, address: '88 Harbor View Dr', city: 'Tampa', state: 'FL', price: '515000', bedrooms: 4, bathrooms: '3.0', squareFeet: 2200,
      status: 'active', images: [], imageUrl: null, mlsId: '',
    })
  ).body;
  return { agent, email, listing, imageUrl };
}

async function draft(page: Page, agentId: number, listingId: number, imageUrl: string, price: string) {
  return (
    await post<{ id: number }>(page, '/api/campaigns', {
      agentId, listingId, templateType: 'just-listed', adFormat: 'single', headline: 'Harbor views in Tampa', description: 'Four bedrooms by the water.',
      subtitle: 'Looking to buy, rent or sell?', callToAction: 'Learn more', targetAudience: 'Local Home Buyers (25-55)', price, status: 'draft', imageUrl, carouselImages: [], link: null,
    })
  ).body;
}

const EXPIRY = `12${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;

test('an under-delivered campaign: the final report and its seller link, the credit on the dashboard, used at the next checkout', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const { agent, email, listing, imageUrl } = await agentWithListing(page);

  // The agent prefers account credit (the dashboard's Credits card), then pays for a $99 campaign.
  await page.goto(`/dashboard?agent=${agent.id}`);
  const credits = page.getByRole('region', { name: 'Credits' });
  await expect(credits.getByTestId('credit-balance')).toHaveText('$0');
  // The radio follows the saved choice (the server's answer), not the click.
  await credits.getByLabel('Account credit for my next campaign').click();
  await expect(page.getByText('Shortfalls will become account credit.')).toBeVisible();
  await expect(credits.getByLabel('Account credit for my next campaign')).toBeChecked();

  const first = await draft(page, agent.id, listing.id, imageUrl, '99');
  await page.goto(`/checkout/${first.id}`);
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiry (MM/YY)').fill(EXPIRY);
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('checkbox', { name: 'I agree to the Terms of Service and Privacy Policy.' }).check();
  await page.getByRole('button', { name: /^Pay \$99$/ }).click();
  await page.waitForURL(/payment=success/);

  // The flight (about 43 s at this scale) ends short; the final report email arrives with the seller link.
  await expect.poll(() => emailsTo(email).filter((m) => /^Subject: Final report/m.test(m)).length, { timeout: 150_000, intervals: [1000] }).toBe(1);
  const final = emailsTo(email).find((m) => /^Subject: Final report/m.test(m))!;
  expect(final).toContain('account credit');
  expect(emailsTo(email).filter((m) => /^Subject: Halfway report/m.test(m))).toHaveLength(1);
  const sellerUrl = /(http:\/\/[^\s"<]+\/report\/[A-Za-z0-9_-]{22})/.exec(final)![1]!;

  // The seller opens it without a login.
  const seller = await browser.newContext();
  const sellerPage = await seller.newPage();
  await sellerPage.goto(sellerUrl.replace(/^http:\/\/[^/]+/, ORIGIN));
  await expect(sellerPage.getByRole('heading', { name: 'Ad results: 88 Harbor View Dr, Tampa, FL' })).toBeVisible();
  await expect(sellerPage.getByText('Listing-page views', { exact: true })).toBeVisible();
  await expect(sellerPage.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await expect(sellerPage.getByText(/of 5,000 guaranteed/)).toBeVisible();
  await seller.close();

  // The credit shows on the dashboard, with the report.
  await page.goto(`/dashboard?agent=${agent.id}`);
  const balance = page.getByRole('region', { name: 'Credits' }).getByTestId('credit-balance');
  await expect(balance).not.toHaveText('$0');
  const creditText = (await balance.textContent())!;
  const creditCents = Math.round(Number(creditText.replace(/[^0-9.]/g, '')) * 100);
  expect(creditCents).toBeGreaterThan(0);
  expect(creditCents).toBeLessThan(9_900);
  const reports = page.getByRole('region', { name: 'Reports' });
  await expect(reports.getByText('Final report')).toBeVisible();
  await expect(reports.getByTestId('seller-link')).toHaveText(sellerUrl);

  // The next checkout uses it.
  const second = await draft(page, agent.id, listing.id, imageUrl, '299');
  await page.goto(`/checkout/${second.id}`);
  const due = 29_900 - creditCents;
  const dueLabel = `$${Math.floor(due / 100)}${due % 100 ? `.${String(due % 100).padStart(2, '0')}` : ''}`;
  await expect(page.getByTestId('credit-applied')).toHaveText(`−${creditText}`);
  await expect(page.getByTestId('total-due')).toHaveText(dueLabel);
  await expect(page.getByRole('button', { name: `Pay ${dueLabel}` })).toBeVisible();
});
