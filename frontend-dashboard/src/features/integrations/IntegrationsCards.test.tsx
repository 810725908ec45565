/// <reference types="jest" />
import type { ApiKeyView, SmsView } from '@app/contracts';
import { act, type ReactNode } from 'react';
import { mount, unmountAll, until } from '../../testing/mount';
import { ApiKeysCard } from './ApiKeysCard';
import { TextAlertsCard } from './TextAlertsCard';

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** A fake server for the two cards (jsdom has no fetch): a small in-memory agent with keys and text alerts. */
function fakeServer(opts: { me?: object } = {}) {
  const calls: Call[] = [];
  let keys: ApiKeyView[] = [];
  let sms: SmsView = { phone: null, status: 'off', consentAt: null, codeExpiresAt: null, provider: 'outbox' };
  const reply = (status: number, body?: unknown) => ({
    ok: status < 400,
    status,
    statusText: String(status),
    headers: { get: (name: string) => (name.toLowerCase() === 'content-type' && body !== undefined ? 'application/json' : null) },
    text: async () => (body === undefined ? '' : JSON.stringify(body)),
  });
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url: url.pathname, body });
    const p = url.pathname;
    if (p === '/api/auth/me') return reply(200, opts.me ?? { id: 7, name: 'Ana' });
    if (p === '/api/agents/7/api-keys' && method === 'GET') return reply(200, keys);
    if (p === '/api/agents/7/api-keys' && method === 'POST') {
      if (!body.name.trim()) return reply(400, { message: 'Give the key a name', code: 'request.invalid', fields: { name: 'Give the key a name' } });
      const key = { id: keys.length + 1, name: body.name, prefix: 'la_AbCd', scopes: body.scopes, createdAt: '2026-11-27T00:00:00.000Z', lastUsedAt: null };
      keys = [key, ...keys];
      return reply(201, { ...key, key: 'la_AbCdsecretsecretsecret' });
    }
    if (p.startsWith('/api/agents/7/api-keys/') && method === 'DELETE') {
      const id = Number(p.split('/').pop());
      const gone = keys.find((k) => k.id === id)!;
      keys = keys.filter((k) => k.id !== id);
      return reply(200, gone);
    }
    if (p === '/api/agents/7/hooks') return reply(200, [{ id: 3, targetUrl: 'https://hooks.zapier.com/hooks/…', event: 'lead.created', createdAt: '2026-11-27T00:00:00.000Z' }]);
    if (p === '/api/agents/7/sms' && method === 'GET') return reply(200, sms);
    if (p === '/api/agents/7/sms' && method === 'PUT') {
      if (body.phone === '555') return reply(400, { message: 'Please enter a valid US mobile number', code: 'request.invalid', fields: { phone: 'Please enter a valid US mobile number' } });
      sms = { ...sms, phone: body.phone, status: 'pending', codeExpiresAt: '2026-11-27T00:10:00.000Z' };
      return reply(200, sms);
    }
    if (p === '/api/agents/7/sms/verify') {
      if (body.code !== '123456') return reply(400, { message: 'That code is not right.', code: 'notifications.sms_code_invalid', fields: { code: 'That code is not right.' } });
      sms = { ...sms, status: 'active', consentAt: '2026-11-27T00:01:00.000Z', codeExpiresAt: null };
      return reply(200, sms);
    }
    return reply(404, { message: 'Not found', code: 'not_found' });
  }) as unknown as typeof fetch;
  return calls;
}

let container: HTMLDivElement;

async function render(node: ReactNode) {
  container = await mount(node);
}
afterEach(unmountAll);
const button = (name: string) => [...container.querySelectorAll('button')].find((b) => b.textContent?.trim() === name);
const byLabel = (text: string) => {
  const label = [...container.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith(text));
  if (!label) throw new Error(`no label ${text}`);
  return (label.htmlFor ? document.getElementById(label.htmlFor) : label.querySelector('input')) as HTMLInputElement;
};
async function type(el: HTMLInputElement, value: string) {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
const click = (el: HTMLElement) => act(async () => el.click());

describe('ApiKeysCard', () => {
  it('creates a key with both scopes, shows it once, lists it without the key, and revokes it', async () => {
    const calls = fakeServer();
    await render(<ApiKeysCard agentId="7" />);
    await until(() => container.textContent!.includes('No API keys yet.'));
    expect(container.textContent).toContain('https://hooks.zapier.com/hooks/…');

    await click(button('Create Key')!);
    await until(() => container.textContent!.includes('Give the key a name'));
    await type(byLabel('Key name'), 'Zapier');
    await click(button('Create Key')!);
    await until(() => !!container.querySelector('[data-testid="new-api-key"]'));
    expect(container.querySelector('[data-testid="new-api-key"]')!.textContent).toBe('la_AbCdsecretsecretsecret');
    expect(calls.filter((c) => c.method === 'POST').pop()!.body).toEqual({ name: 'Zapier', scopes: ['leads:read', 'hooks:write'] });
    await until(() => !!container.querySelector('tbody tr'));
    expect(container.querySelector('tbody')!.textContent).not.toContain('secret');

    jest.spyOn(window, 'confirm').mockReturnValue(true);
    await click(container.querySelector<HTMLButtonElement>('[aria-label="Revoke Zapier"]')!);
    await until(() => container.textContent!.includes('No API keys yet.'));
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/agents/7/api-keys/1')).toBe(true);
    // The revoked key shown once is taken off the screen.
    expect(container.querySelector('[data-testid="new-api-key"]')).toBeNull();
  });

  it('lets an admin viewing as the agent look, not change', async () => {
    fakeServer({ me: { id: 7, name: 'Ana', impersonatedBy: 'admin' } });
    await render(<ApiKeysCard agentId="7" />);
    await until(() => container.textContent!.includes('An admin viewing as this agent cannot create or revoke API keys.'));
    expect(button('Create Key')).toBeUndefined();
  });
});

describe('TextAlertsCard', () => {
  it('asks for consent, texts a code, verifies it, and shows the alerts on', async () => {
    const calls = fakeServer();
    await render(<TextAlertsCard agentId="7" />);
    await until(() => !!button('Text me a code'));
    expect(container.textContent).toContain('I agree to receive automated text alerts from Listing Ads');

    await type(byLabel('Mobile number'), '555');
    await click(button('Text me a code')!);
    expect(container.textContent).toContain('Please agree to receive text alerts');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await click(byLabel('I agree'));
    await click(button('Text me a code')!);
    await until(() => container.textContent!.includes('Please enter a valid US mobile number'));
    await type(byLabel('Mobile number'), '(813) 555-0101');
    await click(button('Text me a code')!);
    await until(() => !!button('Verify'));
    expect(calls.filter((c) => c.method === 'PUT').pop()!.body).toEqual({ phone: '(813) 555-0101', consent: true });

    await type(byLabel('Code'), '000000');
    await click(button('Verify')!);
    await until(() => container.textContent!.includes('That code is not right.'));
    await type(byLabel('Code'), '123456');
    await click(button('Verify')!);
    await until(() => container.textContent!.includes('On'));
    expect(button('Turn off text alerts')).toBeDefined();
    expect(button('Text me a code')).toBeUndefined();
  });
});
