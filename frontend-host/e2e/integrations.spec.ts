import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';

/** The code of the newest text sent to the SMS outbox (the product's DATA_DIR/sms-outbox, see scripts/e2e-server.mjs). */
async function lastTextedCode(): Promise<string> {
  const port = process.env.E2E_PORT ?? '3210';
  const dir = path.join(fs.readFileSync(path.join(os.tmpdir(), `la-e2e-${port}.datadir`), 'utf8').trim(), 'sms-outbox');
  const codes = () => (fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((f) => /verification code is (\d{6})/.exec(fs.readFileSync(path.join(dir, f), 'utf8'))?.[1]).filter(Boolean) : []);
  await expect.poll(() => codes().length, { timeout: 15_000 }).toBeGreaterThan(0);
  return codes().pop()!;
}

test.describe('API keys and text alerts on the dashboard', () => {
  test.describe.configure({ timeout: 90_000 });
  test.use({
    viewport: { width: 1280, height: 900 },
    expectedRequestFailures: [
      [
        // Not logged in: a wizard-session agent without a password opens its dashboard.
        { url: /\/api\/auth\/me$/, status: 401 },
        // The wrong code first.
        { url: /\/sms\/verify$/, status: 400 },
        { url: /openstreetmap\.org/ },
      ],
      { scope: 'test' },
    ],
  });

  test('make an API key, use it, revoke it; turn on text alerts with the texted code', async ({ page, baseURL }) => {
    const headers = { origin: baseURL! };
    const agentAnswer = await page.request.post('/api/agents', { data: { name: 'Kim Keys', state: 'FL', manualEntry: true }, headers });
    expect(agentAnswer.ok(), await agentAnswer.text()).toBe(true);
    const agent = await agentAnswer.json();

    await page.goto(`/dashboard?agent=${agent.id}`);
    const keys = page.getByTestId('api-keys-card');
    await expect(keys.getByRole('heading', { name: 'API Keys' })).toBeVisible({ timeout: 30_000 });
    await expect(keys.getByText('No API keys yet.')).toBeVisible();
    await keys.getByLabel('Key name').fill('Zapier');
    await keys.getByRole('button', { name: 'Create Key' }).click();
    const key = (await keys.getByTestId('new-api-key').textContent())!.trim();
    expect(key).toMatch(/^la_/);
    await expect(keys.getByRole('row', { name: /Zapier/ })).toBeVisible();

    // The key works on the public API, until it is revoked.
    const me = await page.request.get('/api/v1/me', { headers: { authorization: `Bearer ${key}` } });
    expect(await me.json()).toMatchObject({ id: agent.id, apiKey: { name: 'Zapier' } });
    page.once('dialog', (d) => void d.accept());
    await keys.getByRole('button', { name: 'Revoke Zapier' }).click();
    await expect(keys.getByText('No API keys yet.')).toBeVisible();
    await expect(keys.getByTestId('new-api-key')).toHaveCount(0);
    expect((await page.request.get('/api/v1/me', { headers: { authorization: `Bearer ${key}` } })).status()).toBe(401);

    const texts = page.getByTestId('text-alerts-card');
    await expect(texts.getByText('Off', { exact: true })).toBeVisible();
    await texts.getByLabel('Mobile number').fill('(813) 555-0199');
    await texts.getByRole('checkbox', { name: /I agree to receive automated text alerts/ }).check();
    await texts.getByRole('button', { name: 'Text me a code' }).click();
    await expect(texts.getByText('Waiting for the code')).toBeVisible();
    const code = await lastTextedCode();
    await texts.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
    await texts.getByRole('button', { name: 'Verify' }).click();
    await expect(texts.getByText('That code is not right. Check the text and try again.')).toBeVisible();
    await texts.getByLabel('Code').fill(code);
    await texts.getByRole('button', { name: 'Verify' }).click();
    await expect(texts.getByText('On', { exact: true })).toBeVisible();
    await expect(texts.getByText('(813) 555-0199')).toBeVisible();

    const axe = await new AxeBuilder({ page }).include('[data-testid="api-keys-card"]').include('[data-testid="text-alerts-card"]').analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
