import http from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { Webhook } from 'standardwebhooks';
import { expect, requestFailures, test } from './fixtures';
import { signedInAgent } from './accounts';

/** A local receiver standing in for the agent's webhook endpoint (the e2e server allows loopback outbound). */
function startReceiver() {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const state = { answer: 200 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(state.answer, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: state.answer < 300 }));
    });
  });
  return {
    received,
    state,
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/leads`,
    listen: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test.describe('Lead Notifications card', () => {
  test.describe.configure({ timeout: 90_000 });
  test.use({
    viewport: { width: 1280, height: 900 },
    expectedRequestFailures: requestFailures(
        // Not logged in: a wizard-session agent without a password opens its dashboard.
        { url: /\/api\/auth\/me$/, status: 401 },
        // The deliberately bad webhook URL is refused with 400 field messages.
        { url: /\/notification-settings$/, status: 400 },
        // The test send the receiver refuses answers 502 (notifications.test_failed).
        { url: /\/test-webhook$/, status: 502 },
        { url: /openstreetmap\.org/ },
    ),
  });

  const receiver = startReceiver();
  test.beforeAll(() => receiver.listen());
  test.afterAll(() => receiver.close());

  test('save a webhook, test it, see a lead delivered in the log, and replay a failed delivery', async ({ page, baseURL, context }) => {
    const headers = { origin: baseURL! };
    // Signed in in this browser the way the product signs one in (the account setup link, opened here).
    const agent = await signedInAgent(page.request, baseURL!, { name: 'Nora Notify', email: `nora.${Date.now()}@example.com` });
    const listingAnswer = await page.request.post('/api/listings', {
      data: { agentId: agent.id, address: '12 Pelican Way', city: 'Sarasota', state: 'FL', price: '525000', bedrooms: 3, bathrooms: '2.0', squareFeet: 1900, status: 'active', images: [] },
      headers,
    });
    expect(listingAnswer.ok(), await listingAnswer.text()).toBe(true);
    const listing = await listingAnswer.json();

    await page.goto(`/dashboard?agent=${agent.id}`);
    const card = page.getByTestId('lead-notifications-card');
    // The remote loads on a busy 2-core machine: allow it more than the default wait.
    await expect(card.getByRole('heading', { name: 'Lead Notifications' })).toBeVisible({ timeout: 30_000 });
    await expect(card.getByRole('tab')).toHaveText(['General', 'Webhooks', 'Zapier', 'CRM']);
    // Both on by default; the digest is explained next to the instant toggle.
    await expect(card.getByRole('switch', { name: 'Email notifications' })).toBeChecked();
    await expect(card.getByRole('switch', { name: 'Instant notifications' })).toBeChecked();
    await expect(card.getByText(/one digest email a day/)).toBeVisible();

    // CRM: the URL and key fields appear only once a type is chosen.
    await card.getByRole('tab', { name: 'CRM' }).click();
    await expect(card.getByLabel('CRM API key')).toHaveCount(0);
    await card.getByRole('combobox', { name: 'CRM', exact: true }).selectOption({ label: 'Other CRM (JSON webhook)' });
    await expect(card.getByLabel('CRM webhook URL')).toBeVisible();
    await expect(card.getByLabel('CRM API key')).toBeVisible();
    await card.getByRole('combobox', { name: 'CRM', exact: true }).selectOption({ label: 'No CRM' });

    // Webhooks: no test button before a URL is saved; a bad URL gets the server's message on its field.
    await card.getByRole('tab', { name: 'Webhooks' }).click();
    await expect(card.getByRole('button', { name: 'Test Webhook' })).toHaveCount(0);
    const axe = await new AxeBuilder({ page }).include('[data-testid="lead-notifications-card"]').analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await card.getByLabel('Webhook URL', { exact: true }).fill('ftp://example.com/x');
    const refused = page.waitForResponse((r) => r.url().endsWith('/notification-settings') && r.request().method() === 'PUT');
    await card.getByRole('button', { name: 'Save Settings' }).click();
    expect((await refused).status()).toBe(400);
    await expect(page.getByText('Failed to save notification settings')).toBeVisible();
    await expect(card.getByRole('tabpanel', { name: 'Webhooks' }).getByText('Webhook URL must be a valid HTTPS URL')).toBeVisible();

    await card.getByLabel('Webhook URL', { exact: true }).fill(receiver.url());
    await card.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('Settings Saved')).toBeVisible();
    await expect(page.getByText('Your notification settings have been updated successfully')).toBeVisible();
    // No secret was typed: one was generated, shown this once.
    const secret = (await card.getByTestId('generated-webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await expect(card.getByText('A secret is stored.', { exact: false })).toBeVisible();

    await card.getByRole('button', { name: 'Test Webhook' }).click();
    await expect(page.getByText('Test Successful')).toBeVisible();
    await expect(page.getByText(/Test custom notification delivered/)).toBeVisible();
    const sample = receiver.received.at(-1)!;
    const verified = new Webhook(secret).verify(sample.body, {
      'webhook-id': String(sample.headers['webhook-id']),
      'webhook-timestamp': String(sample.headers['webhook-timestamp']),
      'webhook-signature': String(sample.headers['webhook-signature']),
    }) as { type: string };
    expect(verified.type).toBe('lead.test');

    // A buyer sends a lead on the listing page: it reaches the receiver and shows in the delivery log.
    const buyer = await context.newPage();
    await buyer.goto(`/listing/${listing.mlsId}`);
    await buyer.getByRole('button', { name: 'Get More Information' }).click();
    const form = buyer.getByRole('dialog', { name: 'Get More Information' });
    await form.getByLabel('Name').fill('Riley Buyer');
    await form.getByLabel('Email').fill('riley@example.com');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(buyer.getByText('Thank you!')).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => receiver.received.some((r) => r.body.includes('"lead.created"') && r.body.includes('Riley Buyer'))).toBe(true);
    await buyer.close();

    const log = card.getByRole('region', { name: 'Delivery log' });
    await log.getByRole('button', { name: 'Refresh' }).click();
    const leadRow = log.getByTestId('delivery-row').filter({ hasText: 'New lead' }).filter({ hasText: 'Webhook' });
    await expect(leadRow).toHaveCount(1);
    await expect(leadRow).toHaveAttribute('data-status', 'succeeded');
    await expect(leadRow).toContainText('HTTP 200');

    // The receiver fails: the test send is refused and logged as dead, with a Replay button.
    receiver.state.answer = 500;
    await card.getByRole('button', { name: 'Test Webhook' }).click();
    await expect(page.getByText('Test Failed')).toBeVisible();
    await expect(page.getByText(/Failed to send test custom notification/)).toBeVisible();
    const deadRow = log.getByTestId('delivery-row').filter({ hasText: 'Test' }).filter({ hasText: 'HTTP 500' });
    await expect(deadRow).toHaveAttribute('data-status', 'dead');

    // It works again: Replay sends the same delivery once more, and the log shows the new attempt.
    receiver.state.answer = 200;
    const before = receiver.received.length;
    await deadRow.getByRole('button', { name: /^Replay/ }).click();
    await expect(page.getByText('Replay queued')).toBeVisible();
    // The new attempt (attempt 2 of the same delivery) appears without a manual refresh.
    const replayed = log
      .getByTestId('delivery-row')
      .filter({ hasText: 'Test' })
      .filter({ has: page.getByRole('cell', { name: '2', exact: true }) });
    await expect(replayed).toHaveAttribute('data-status', 'succeeded');
    await expect(replayed).toContainText('HTTP 200');
    expect(receiver.received.length).toBeGreaterThan(before);
    // The same delivery: the replay carries the webhook-id of the failed attempt.
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(receiver.received[before - 1]!.headers['webhook-id']);
  });
});
