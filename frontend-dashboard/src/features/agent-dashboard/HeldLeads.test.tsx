/// <reference types="jest" />
import type { LeadShown } from '@app/contracts';
import { act } from 'react';
import { jsonReply } from '../../testing/json-reply';
import { mount, unmountAll, until as untilState } from '../../testing/mount';
import { HeldLeads, holdReasonText } from './HeldLeads';

const lead = (id: number, over: Partial<LeadShown> = {}): LeadShown => ({
  id,
  name: `Buyer ${id}`,
  email: `b${id}@example.com`,
  phone: null,
  phoneLink: null,
  interest: 'General',
  message: 'Hello',
  createdAt: '2026-11-26T10:00:00.000Z',
  listing: { address: '9 Bay St', price: '450000', mlsId: 'FL1' },
  status: 'held',
  holdReasons: ['proof'],
  ...over,
});

/** A fake server for the section's calls: the held list, and Release / Discard, which take a lead off it. */
function fakeServer(initial: LeadShown[]) {
  let held = [...initial];
  const calls: { method: string; url: string }[] = [];
  const reply = jsonReply;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    const method = init?.method ?? 'GET';
    calls.push({ method, url: `${url.pathname}${url.search}` });
    if (method === 'GET' && url.pathname === '/api/agents/7/leads' && url.searchParams.get('status') === 'held') {
      return reply(200, { leads: held, total: held.length, nextCursor: null, held: held.length });
    }
    const review = /^\/api\/agents\/7\/leads\/(\d+)\/(release|discard)$/.exec(url.pathname);
    if (method === 'POST' && review) {
      const id = Number(review[1]);
      if (!held.some((l) => l.id === id)) return reply(409, { message: 'This lead is not held for review: it was delivered or discarded already.', code: 'leads.not_held' });
      held = held.filter((l) => l.id !== id);
      return reply(200, { id, status: review[2] === 'release' ? 'received' : 'discarded' });
    }
    return reply(404, { message: 'Not found', code: 'not_found' });
  }) as unknown as typeof fetch;
  return calls;
}

let container: HTMLDivElement;
const toasts: { title: string }[] = [];
afterEach(async () => {
  await unmountAll();
  toasts.length = 0;
});

const until = (done: () => boolean) => untilState(done, 'the section');
const rows = () => [...container.querySelectorAll('[data-testid="held-lead"]')];
const button = (label: string) => [...container.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === label) as HTMLButtonElement;

describe('Held for review (the leads card)', () => {
  it('lists the held leads with why, and Release / Discard each take one off the list', async () => {
    const calls = fakeServer([lead(3, { holdReasons: ['network', 'proof'] }), lead(2), lead(1)]);
    container = await mount(<HeldLeads agentId="7" count={3} toast={(t) => toasts.push(t)} />);
    await until(() => rows().length === 3);
    expect(container.textContent).toContain('Held for review (3)');
    expect(rows()[0].textContent).toContain("many leads from one network; the page's check was not completed");

    await act(async () => button('Release the lead from Buyer 3').click());
    await until(() => rows().length === 2);
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/agents/7/leads/3/release')).toBe(true);
    expect(toasts.at(-1)).toMatchObject({ title: 'Lead released' });

    await act(async () => button('Discard the lead from Buyer 1').click());
    await until(() => rows().length === 1);
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/agents/7/leads/1/discard')).toBe(true);
    expect(toasts.at(-1)).toMatchObject({ title: 'Lead discarded' });
    expect(container.textContent).toContain('Held for review (1)');
  });

  it('says why each lead is held', () => {
    expect(holdReasonText({ holdReasons: ['address', 'content'] })).toBe('many leads from one address; repeats another lead');
  });
});
