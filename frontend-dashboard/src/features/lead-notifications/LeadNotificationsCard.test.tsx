/// <reference types="jest" />
import { CRM_INTEGRATIONS, type DeliveryView, type NotificationSettingsView } from '@app/contracts';
import { act } from 'react';
import { jsonReply } from '../../testing/json-reply';
import { mount, unmountAll, until } from '../../testing/mount';
import { notificationSettings } from '../../testing/notification-settings';
import { LeadNotificationsCard } from './LeadNotificationsCard';

const baseSettings = notificationSettings();

interface Call {
  method: string;
  url: string;
  search: string;
  body: unknown;
}

/** A fake server for the card's calls (jsdom has no fetch): answers by method and path, records every call. */
function fakeServer(opts: {
  settings: NotificationSettingsView;
  me?: object;
  putAnswer?: { status: number; body: unknown };
  deliveries?: DeliveryView[];
  crmListFails?: boolean;
  liondesk?: { connected: boolean; needsReconnect: boolean; connectedAt: string | null };
}) {
  const calls: Call[] = [];
  let settings = opts.settings;
  let liondesk = opts.liondesk ?? { connected: false, needsReconnect: false, connectedAt: null };
  const reply = jsonReply;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url: url.pathname, search: url.search, body });
    if (url.pathname === '/api/auth/me') return reply(200, opts.me ?? { id: 7, name: 'Ana' });
    if (url.pathname === '/api/crm-integrations') return opts.crmListFails ? reply(500, { message: 'boom' }) : reply(200, CRM_INTEGRATIONS);
    if (url.pathname.endsWith('/deliveries')) {
      const items = (opts.deliveries ?? []).filter((d) => !url.searchParams.get('status') || d.status === url.searchParams.get('status'));
      return reply(200, { items, page: 1, pageSize: 10, total: items.length });
    }
    if (url.pathname.endsWith('/crm/liondesk') && method === 'GET') return reply(200, liondesk);
    if (url.pathname.endsWith('/crm/liondesk') && method === 'DELETE') {
      liondesk = { connected: false, needsReconnect: false, connectedAt: null };
      return new Response(null, { status: 204 });
    }
    if (url.pathname.endsWith('/replay') && method === 'POST') return reply(202, { message: 'Delivery wh_1 queued again (attempt 3)', webhookId: 'wh_1', attempt: 3 });
    if (url.pathname.endsWith('/notification-settings') && method === 'GET') return reply(200, settings);
    if (url.pathname.endsWith('/notification-settings') && method === 'PUT') {
      if (opts.putAnswer) return reply(opts.putAnswer.status, opts.putAnswer.body);
      const b = body as Record<string, unknown>;
      settings = {
        ...settings,
        webhookUrl: (b.webhookUrl as string) || null,
        hasWebhookSecret: settings.hasWebhookSecret || !!b.webhookSecret,
      };
      return reply(200, settings);
    }
    return reply(404, { message: 'Not found', code: 'not_found' });
  }) as unknown as typeof fetch;
  return calls;
}

let container: HTMLDivElement;

async function render() {
  container = await mount(<LeadNotificationsCard agentId="7" />);
  // The settings have loaded once the save button is there.
  await until(() => !!button('Save Settings'));
}

afterEach(unmountAll);

const byLabel = (text: string) => {
  const label = [...container.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith(text));
  if (!label) throw new Error(`no label ${text}`);
  return document.getElementById(label.htmlFor) as HTMLInputElement | HTMLSelectElement;
};
const button = (name: string) => [...container.querySelectorAll('button')].find((b) => b.textContent?.trim() === name);
const tab = (name: string) => [...container.querySelectorAll<HTMLButtonElement>('[role="tab"]')].find((b) => b.textContent === name)!;

/** Types into a React-controlled input (sets the value the way React's change tracking sees it). */
async function type(el: HTMLInputElement | HTMLSelectElement, value: string) {
  const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  await act(async () => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}
async function click(el: HTMLElement) {
  await act(async () => el.click());
}

describe('LeadNotificationsCard', () => {
  it('shows the four tabs and offers no test without a saved URL', async () => {
    fakeServer({ settings: baseSettings });
    await render();
    expect([...container.querySelectorAll('[role="tab"]')].map((t) => t.textContent)).toEqual(['General', 'Webhooks', 'Zapier', 'CRM']);
    expect(button('Test Webhook')).toBeUndefined();
    expect(button('Test Zapier')).toBeUndefined();
    expect(button('Test CRM')).toBeUndefined();
  });

  it('sends the secret only once typed, and shows the test button once the URL is saved', async () => {
    const calls = fakeServer({ settings: { ...baseSettings, webhookUrl: 'https://example.com/h', hasWebhookSecret: true } });
    await render();
    await click(tab('Webhooks'));
    expect(button('Test Webhook')).toBeDefined();
    expect(container.textContent).toContain('A secret is stored.');

    await click(button('Save Settings')!);
    await until(() => container.textContent!.includes('Settings Saved'));
    const first = calls.find((c) => c.method === 'PUT')!;
    expect(first.body).not.toHaveProperty('webhookSecret');
    expect(container.textContent).toContain('Settings Saved');

    await type(byLabel('Webhook secret') as HTMLInputElement, 'whsec_typed');
    await click(button('Save Settings')!);
    await until(() => calls.filter((c) => c.method === 'PUT').length === 2 && (byLabel('Webhook secret') as HTMLInputElement).value === '');
    const second = calls.filter((c) => c.method === 'PUT')[1]!;
    expect(second.body).toMatchObject({ webhookSecret: 'whsec_typed', webhookUrl: 'https://example.com/h' });
    // Saved: the typed secret leaves the field.
    expect((byLabel('Webhook secret') as HTMLInputElement).value).toBe('');
  });

  it('hides the test button while a new URL is typed but not saved', async () => {
    fakeServer({ settings: { ...baseSettings, webhookUrl: 'https://example.com/h' } });
    await render();
    await click(tab('Webhooks'));
    expect(button('Test Webhook')).toBeDefined();
    await type(byLabel('Webhook URL') as HTMLInputElement, 'https://example.com/other');
    expect(button('Test Webhook')).toBeUndefined();
  });

  it('shows the CRM URL and key fields only once a CRM type is chosen', async () => {
    fakeServer({ settings: baseSettings });
    await render();
    await click(tab('CRM'));
    await until(() => (byLabel('CRM') as HTMLSelectElement).options.length === CRM_INTEGRATIONS.length + 1);
    expect(() => byLabel('CRM webhook URL')).toThrow();
    expect(() => byLabel('CRM API key')).toThrow();
    await type(byLabel('CRM') as HTMLSelectElement, 'custom');
    expect(byLabel('CRM webhook URL')).toBeTruthy();
    expect(byLabel('CRM API key')).toBeTruthy();
    // A native CRM asks for its own credential by name, with no URL field.
    await type(byLabel('CRM') as HTMLSelectElement, 'hubspot');
    expect(() => byLabel('CRM webhook URL')).toThrow();
    expect(container.textContent).toContain('Required for this CRM: your HubSpot private app access token.');
  });

  it('LionDesk: a Connect LionDesk button (a navigation to the connect route), no key field; once connected, Disconnect', async () => {
    const calls = fakeServer({ settings: baseSettings });
    await render();
    await click(tab('CRM'));
    await until(() => (byLabel('CRM') as HTMLSelectElement).options.length === CRM_INTEGRATIONS.length + 1);
    await type(byLabel('CRM') as HTMLSelectElement, 'liondesk');
    await until(() => !!container.querySelector('a[href="/api/agents/7/crm/liondesk/connect"]'));
    expect(container.querySelector('a[href="/api/agents/7/crm/liondesk/connect"]')!.textContent).toBe('Connect LionDesk');
    expect(() => byLabel('CRM API key')).toThrow();
    expect(() => byLabel('CRM webhook URL')).toThrow();
    expect(calls.some((c) => c.url === '/api/agents/7/crm/liondesk' && c.method === 'GET')).toBe(true);
  });

  it('LionDesk connected: shows so, and Disconnect calls DELETE and offers Connect again', async () => {
    const calls = fakeServer({ settings: { ...baseSettings, crmType: 'liondesk' }, liondesk: { connected: true, needsReconnect: false, connectedAt: '2026-11-27T05:00:00.000Z' } });
    await render();
    await click(tab('CRM'));
    await until(() => !!button('Disconnect'));
    expect(container.textContent).toContain('LionDesk connected');
    expect(() => byLabel('CRM API key')).toThrow();
    await click(button('Disconnect')!);
    await until(() => !!container.querySelector('a[href="/api/agents/7/crm/liondesk/connect"]'));
    expect(calls.some((c) => c.url === '/api/agents/7/crm/liondesk' && c.method === 'DELETE')).toBe(true);
  });

  it('LionDesk that stopped accepting the connection: says so and offers Reconnect LionDesk', async () => {
    fakeServer({ settings: { ...baseSettings, crmType: 'liondesk' }, liondesk: { connected: true, needsReconnect: true, connectedAt: '2026-11-27T05:00:00.000Z' } });
    await render();
    await click(tab('CRM'));
    await until(() => !!container.querySelector('a[href="/api/agents/7/crm/liondesk/connect"]'));
    expect(container.querySelector('a[href="/api/agents/7/crm/liondesk/connect"]')!.textContent).toBe('Reconnect LionDesk');
    expect(container.textContent).toContain('LionDesk no longer accepts this connection');
  });

  it('shows a saved Other CRM as itself when the CRM list fails to load', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    fakeServer({ settings: { ...baseSettings, crmType: 'custom', crmWebhookUrl: 'https://crm.example.com/…' }, crmListFails: true });
    await render();
    await click(tab('CRM'));
    const select = byLabel('CRM') as HTMLSelectElement;
    expect(select.value).toBe('custom');
    expect(select.selectedOptions[0]!.textContent).toBe('Other CRM (JSON webhook)');
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('describes a saved Zapier URL as the shortened one it shows', async () => {
    fakeServer({ settings: { ...baseSettings, zapierWebhookUrl: 'https://hooks.zapier.com/hooks/…' } });
    await render();
    await click(tab('Zapier'));
    expect((byLabel('Zapier webhook URL') as HTMLInputElement).value).toBe('https://hooks.zapier.com/hooks/…');
    expect(container.textContent).toContain('Your saved Catch Hook URL, shortened');
    await type(byLabel('Zapier webhook URL') as HTMLInputElement, 'https://hooks.zapier.com/hooks/catch/1/abc/');
    expect(container.textContent).not.toContain('shortened');
  });

  it('puts the server 400 field message on its field and opens its tab', async () => {
    fakeServer({
      settings: baseSettings,
      putAnswer: { status: 400, body: { message: 'Webhook URL must be a valid HTTPS URL', code: 'request.invalid', fields: { webhookUrl: 'Webhook URL must be a valid HTTPS URL' } } },
    });
    await render();
    await click(button('Save Settings')!);
    await until(() => container.textContent!.includes('Failed to save notification settings'));
    expect(tab('Webhooks').getAttribute('aria-selected')).toBe('true');
    expect(container.querySelector('[role="alert"]')?.textContent).toContain('Webhook URL must be a valid HTTPS URL');
    expect(container.textContent).toContain('Failed to save notification settings');
  });

  it('shows the integrations read-only, with the reason, for an admin viewing as the agent, and saves only the email toggles', async () => {
    const calls = fakeServer({ settings: { ...baseSettings, webhookUrl: 'https://example.com/h', hasWebhookSecret: true }, me: { id: 7, name: 'Ana', impersonatedBy: 'admin' } });
    await render();
    await click(tab('Webhooks'));
    const secret = byLabel('Webhook secret') as HTMLInputElement;
    expect(secret.disabled).toBe(true);
    expect((byLabel('Webhook URL') as HTMLInputElement).readOnly).toBe(true);
    expect(container.textContent).toContain('An admin viewing as this agent can read the integrations but cannot change them');
    expect(button('Remove')).toBeUndefined();
    await click(tab('CRM'));
    expect((byLabel('CRM') as HTMLSelectElement).disabled).toBe(true);
    await click(button('Save Settings')!);
    await until(() => calls.some((c) => c.method === 'PUT'));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({ emailNotifications: true, instantNotifications: true });
  });

  it('says a new webhook URL does not keep the stored secret', async () => {
    fakeServer({ settings: { ...baseSettings, webhookUrl: 'https://example.com/h', hasWebhookSecret: true } });
    await render();
    await click(tab('Webhooks'));
    expect(container.textContent).toContain('A secret is stored.');
    await type(byLabel('Webhook URL') as HTMLInputElement, 'https://other.example.com/h');
    expect(container.textContent).toContain('A new URL does not keep the stored secret: type it again');
  });
});

const delivery = (over: Partial<DeliveryView>): DeliveryView => ({
  id: 1,
  webhookId: 'wh_1',
  kind: 'lead.created',
  channel: 'webhook',
  leadId: 5,
  attempt: 1,
  status: 'succeeded',
  target: 'https://example.com/h',
  responseCode: 200,
  responseBody: null,
  error: null,
  warning: null,
  durationMs: 12,
  createdAt: '2026-11-23T20:00:00.000Z',
  nextAttemptAt: null,
  replayable: false,
  ...over,
});

describe('DeliveryLog', () => {
  it('offers Replay only for a delivery the server calls replayable (dead, no automatic attempt due), and calls the replay route', async () => {
    const calls = fakeServer({
      settings: baseSettings,
      deliveries: [
        delivery({ id: 3, status: 'dead', attempt: 2, responseCode: 500, error: 'HTTP 500', replayable: true }),
        delivery({ id: 2, webhookId: 'wh_2', status: 'failed', responseCode: 503, nextAttemptAt: '2026-11-23T20:05:00.000Z' }),
        delivery({ id: 1, webhookId: 'wh_3' }),
      ],
    });
    await render();
    await until(() => container.querySelectorAll('[data-testid="delivery-row"]').length === 3);
    const rows = [...container.querySelectorAll<HTMLTableRowElement>('[data-testid="delivery-row"]')];
    const replayIn = (row: HTMLTableRowElement) => [...row.querySelectorAll('button')].find((b) => b.textContent === 'Replay');
    expect(rows.map((r) => !!replayIn(r))).toEqual([true, false, false]);
    expect(rows[1]!.textContent).toContain('next attempt');

    await click(replayIn(rows[0]!)!);
    await until(() => calls.some((c) => c.method === 'POST' && c.url === '/api/agents/7/deliveries/3/replay'));
    await until(() => container.textContent!.includes('Replay queued'));
  });

  it('does not offer Replay on an older attempt of a delivery still being retried; a replay keeps the filters and names no internal id', async () => {
    const calls = fakeServer({
      settings: baseSettings,
      deliveries: [
        delivery({ id: 5, webhookId: 'wh_9', status: 'failed', attempt: 2, responseCode: 503, nextAttemptAt: '2026-11-23T20:05:00.000Z' }),
        delivery({ id: 4, webhookId: 'wh_9', status: 'failed', attempt: 1, responseCode: 503 }),
        // The server's replayable: both attempts of the dead delivery wh_1 (contracts isReplayable), none of wh_9's.
        delivery({ id: 3, status: 'dead', attempt: 2, responseCode: 500, error: 'HTTP 500', replayable: true }),
        delivery({ id: 2, status: 'failed', attempt: 1, responseCode: 500, replayable: true }),
      ],
    });
    await render();
    await until(() => container.querySelectorAll('[data-testid="delivery-row"]').length === 4);
    const replayIn = (row: HTMLTableRowElement) => [...row.querySelectorAll('button')].find((b) => b.textContent === 'Replay');
    let rows = [...container.querySelectorAll<HTMLTableRowElement>('[data-testid="delivery-row"]')];
    // wh_9 is being retried (both its rows), wh_1's newest attempt (dead) may be replayed, its older one not.
    expect(rows.map((r) => !!replayIn(r))).toEqual([false, false, true, false]);

    await type(byLabel('Channel') as HTMLSelectElement, 'webhook');
    await type(byLabel('Status') as HTMLSelectElement, 'dead');
    await until(() => container.querySelectorAll('[data-testid="delivery-row"]').length === 1);
    rows = [...container.querySelectorAll<HTMLTableRowElement>('[data-testid="delivery-row"]')];
    await click(replayIn(rows[0]!)!);
    await until(() => container.textContent!.includes('Replay queued'));
    expect(container.textContent).toContain('The Webhook delivery will be sent again now (attempt 3).');
    expect(container.textContent).not.toContain('wh_1');
    expect((byLabel('Channel') as HTMLSelectElement).value).toBe('webhook');
    expect((byLabel('Status') as HTMLSelectElement).value).toBe('dead');
    expect(calls.filter((c) => c.url.endsWith('/deliveries')).at(-1)!.search).toBe('?page=1&pageSize=10&channel=webhook&status=dead');
  });

  it('asks the server for one status when filtered', async () => {
    const calls = fakeServer({ settings: baseSettings, deliveries: [delivery({ id: 3, status: 'dead' }), delivery({ id: 1 })] });
    await render();
    await until(() => container.querySelectorAll('[data-testid="delivery-row"]').length === 2);
    await type(byLabel('Status') as HTMLSelectElement, 'dead');
    await until(() => container.querySelectorAll('[data-testid="delivery-row"]').length === 1);
    expect(calls.filter((c) => c.url.endsWith('/deliveries')).at(-1)!.search).toBe('?page=1&pageSize=10&status=dead');
  });
});
