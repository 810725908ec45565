import crypto from 'node:crypto';
import { expect, test } from './fixtures';

// A flood of junk leads at one listing (DESIGN §6 Leads): the listing stays open to real buyers. The page answers
// the server's proof-of-work challenge by itself, and the agent reviews what was held.
test.describe.configure({ timeout: 90_000 });
test.use({
  viewport: { width: 1280, height: 900 },
  expectedRequestFailures: [[{ url: /\/api\/auth\/me$/, status: 401 }, { url: /openstreetmap\.org/ }], { scope: 'test' }],
});

test('under a flood, a buyer on the page still gets through; the agent releases a held lead', async ({ page, baseURL, browser }) => {
  const headers = { origin: baseURL! };
  const agent = await (await page.request.post('/api/agents', { data: { name: 'Flo Flood', state: 'FL', manualEntry: true, email: 'flo@example.com' }, headers })).json();
  const listing = await (
    await page.request.post('/api/listings', {
      data: { agentId: agent.id, address: '7 Surf Lane', city: 'Naples', state: 'FL', price: '610000', bedrooms: 3, bathrooms: '2.0', squareFeet: 1700, status: 'active', images: [] },
      headers,
    })
  ).json();

  // Twelve junk leads from twelve addresses (a script: the page's form token, no proof of work).
  const html = await (await page.request.get(`/manual-listing/${listing.mlsId}`)).text();
  const formToken = JSON.parse(/<script type="application\/json" id="listing-page-data">([\s\S]*?)<\/script>/.exec(html)![1]).formToken as string;
  await page.waitForTimeout(3_100); // the form token's time trap: no lead within 3 s of the page
  for (let i = 0; i < 12; i++) {
    const junk = await page.request.post(`/api/listings/${listing.mlsId}/leads`, {
      headers: { ...headers, 'X-Forwarded-For': `198.51.${100 + i}.7` },
      data: { name: `Junk ${i}`, email: `junk${i}@example.com`, message: `Cheap offer number ${i}`, formToken, idempotencyKey: crypto.randomBytes(12).toString('base64url') },
    });
    expect(junk.status()).toBe(201);
  }

  // A buyer from a fresh address opens the page and sends the form: the page proves its work and the lead goes through.
  const buyerContext = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.77' } });
  const buyer = await buyerContext.newPage();
  const posts: { status: number; body: { id: number; challenge?: unknown } }[] = [];
  buyer.on('response', async (r) => {
    if (r.url().endsWith('/leads') && r.request().method() === 'POST') posts.push({ status: r.status(), body: await r.json() });
  });
  await buyer.goto(`/manual-listing/${listing.mlsId}`);
  await buyer.getByRole('button', { name: 'Get More Information' }).click();
  const form = buyer.getByRole('dialog', { name: 'Get More Information' });
  await form.getByLabel('Name').fill('Riley Real');
  await form.getByLabel('Email').fill('riley.real@example.com');
  await form.getByLabel('Message').fill('Could we see it on Saturday morning?');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(buyer.getByText('Thank you!')).toBeVisible({ timeout: 15_000 });
  // Asked for the proof (the listing is guarded), then sent again with it: the same lead, delivered.
  expect(posts.map((p) => p.status)).toEqual([201, 201]);
  expect(posts[0].body.challenge).toBeDefined();
  expect(posts[1].body).toEqual({ id: posts[0].body.id });
  await buyerContext.close();

  // The agent's dashboard: the buyer among the leads; the junk held for review, released or discarded one by one.
  await page.goto(`/dashboard?agent=${agent.id}`);
  const leads = page.getByRole('region', { name: 'Your Leads' });
  await expect(leads).toBeVisible({ timeout: 30_000 });
  await expect(leads.getByRole('table').first()).toContainText('Riley Real');
  const held = leads.getByRole('region', { name: 'Held for review' });
  await expect(held.getByRole('heading')).toHaveText(/^Held for review \(\d+\)$/);
  const before = Number(/\((\d+)\)/.exec((await held.getByRole('heading').textContent())!)![1]);
  expect(before).toBeGreaterThanOrEqual(6);
  const first = held.getByTestId('held-lead').first();
  const name = (await first.locator('strong').textContent())!;
  await first.getByRole('button', { name: `Release the lead from ${name}` }).click();
  await expect(page.getByText('Lead released')).toBeVisible();
  await expect(held.getByRole('heading')).toHaveText(`Held for review (${before - 1})`);
  await expect(leads.getByRole('table').first()).toContainText(name);
  await held.getByTestId('held-lead').first().getByRole('button', { name: /^Discard the lead from/ }).click();
  await expect(page.getByText('Lead discarded')).toBeVisible();
  await expect(held.getByRole('heading')).toHaveText(`Held for review (${before - 2})`);
});
