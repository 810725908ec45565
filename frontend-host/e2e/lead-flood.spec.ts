import crypto from 'node:crypto';
import { expect, test } from './fixtures';
import { signedInAgent } from './accounts';

// A flood of junk leads at one listing (DESIGN §6 Leads): the listing stays open to real buyers. The page answers
// the server's proof-of-work challenge by itself, and the agent reviews what was held.
test.describe.configure({ timeout: 90_000 });
test.use({
  viewport: { width: 1280, height: 900 },
  expectedRequestFailures: [[{ url: /openstreetmap\.org/ }], { scope: 'test' }],
});

test('under a flood, a buyer on the page still gets through; the agent releases a held lead', async ({ page, baseURL, browser }) => {
  const headers = { origin: baseURL! };
  // The agent reviews held leads on the dashboard, which is the signed-in agent's: signed in in this browser.
  const agent = await signedInAgent(page.request, baseURL!, { name: 'Flo Flood', email: `flo.${Date.now()}@example.com` });
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

  // A buyer from a fresh address opens the page and sends the form. The form, as it opened, was given the listing's
  // challenge and solved it while the buyer typed: one send, with its proof, delivered.
  const sendForm = async (address: string, who: { name: string; email: string; message: string }, opts: { openedBeforeTheFlood?: boolean } = {}) => {
    const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': address } });
    // The answer the form had when it opened while the listing was still quiet.
    if (opts.openedBeforeTheFlood) await context.route(/\/lead-challenge$/, (route) => route.fulfill({ json: { challenge: null } }));
    const tab = await context.newPage();
    // Each answer's body is read as it comes (before the tab closes), and awaited at the end.
    const posts: Promise<{ status: number; body: { id: number; challenge?: unknown } }>[] = [];
    const asked: Promise<{ challenge: unknown }>[] = [];
    tab.on('response', (r) => {
      if (r.request().method() !== 'POST') return;
      if (r.url().endsWith('/leads')) posts.push(r.json().then((body) => ({ status: r.status(), body })));
      if (r.url().endsWith('/lead-challenge')) asked.push(r.json());
    });
    const answered = tab.waitForResponse((r) => r.url().endsWith('/lead-challenge'));
    await tab.goto(`/manual-listing/${listing.mlsId}`);
    await tab.getByRole('button', { name: 'Get More Information' }).click();
    await answered;
    const form = tab.getByRole('dialog', { name: 'Get More Information' });
    await form.getByLabel('Name').fill(who.name);
    await form.getByLabel('Email').fill(who.email);
    await form.getByLabel('Message').fill(who.message);
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(tab.getByText('Thank you!')).toBeVisible({ timeout: 15_000 });
    const answers = { posts: await Promise.all(posts), asked: await Promise.all(asked) };
    await context.close();
    return answers;
  };
  const riley = await sendForm('203.0.113.77', { name: 'Riley Real', email: 'riley.real@example.com', message: 'Could we see it on Saturday morning?' });
  expect(riley.asked).toEqual([{ challenge: expect.objectContaining({ token: expect.any(String) }) }]);
  expect(riley.posts).toEqual([{ status: 201, body: { id: expect.any(Number) } }]);

  // A form opened before the flood (its answer: no challenge) is asked for the proof at its send, and sends again.
  const casey = await sendForm('203.0.113.78', { name: 'Casey Calm', email: 'casey.calm@example.com', message: 'Is the garage big enough for two cars?' }, { openedBeforeTheFlood: true });
  expect(casey.asked).toEqual([{ challenge: null }]);
  expect(casey.posts.map((p) => p.status)).toEqual([201, 201]);
  expect(casey.posts[0].body.challenge).toBeDefined();
  expect(casey.posts[1].body).toEqual({ id: casey.posts[0].body.id });

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
