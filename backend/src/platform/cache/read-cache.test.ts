import { createTestContext, type TestContext } from '../../../test/helpers';
import { campaignDraftBody, wizardBrowser } from '../../../test/factories';
import { createReadCaches, READ_CACHE_MAX_TTL_MS } from './read-cache';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** A loader that counts its calls and answers the next value it is given. */
function counter() {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    load: (value: string) => async () => {
      calls += 1;
      return value;
    },
  };
}

describe('read caches', () => {
  it('answers from memory until this process writes one of the tables, in or out of a transaction', async () => {
    const caches = createReadCaches(t.db, 5_000);
    const cache = caches.named<string>('test-agents', ['agents']);
    const c = counter();
    expect(await cache.get('1', c.load('a'))).toBe('a');
    expect(await cache.get('1', c.load('b'))).toBe('a');
    expect(c.calls).toBe(1);

    // A read of the table, or a write to another table, keeps it.
    await t.db('agents').count();
    await t.db('sessions').where({ sid: 'nobody' }).delete();
    expect(await cache.get('1', c.load('c'))).toBe('a');

    await t.db('agents').where({ id: -1 }).update({ name: 'x' });
    expect(await cache.get('1', c.load('d'))).toBe('d');

    await t.db.transaction(async (trx) => {
      await trx.raw('update agents set name = name where id = -1');
    });
    expect(await cache.get('1', c.load('e'))).toBe('e');

    // A write inside a CTE counts too.
    await t.db.raw('with gone as (delete from "agents" where id = -1 returning id) select count(*) from gone');
    expect(await cache.get('1', c.load('f'))).toBe('f');
    expect(c.calls).toBe(4);
  });

  it('runs one load for concurrent callers, and drops what a load read before a write that ended meanwhile', async () => {
    const cache = createReadCaches(t.db, 5_000).named<string>('test-listings', ['listings']);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const slow = async () => {
      calls += 1;
      await gate;
      return 'old';
    };
    const first = cache.get('k', slow);
    const second = cache.get('k', slow);
    // The write happens while the load is in flight: what it read must not be kept.
    await t.db('listings').where({ id: -1 }).delete();
    release();
    expect(await Promise.all([first, second])).toEqual(['old', 'old']);
    expect(calls).toBe(1);
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });

  it('a read made while a transaction that wrote the table is still open is not kept past its commit', async () => {
    const cache = createReadCaches(t.db, 5_000).named<number>('test-tx', ['agents']);
    const count = async () => Number((await t.db('agents').where({ name: 'Tx Visible' }).count({ n: '*' }))[0].n);
    // Another connection reads (and caches) after the insert but before the commit: it cannot see the row.
    let before = -1;
    await t.db.transaction(async (trx) => {
      await trx('agents').insert({ name: 'Tx Visible', state: 'FL' });
      before = await cache.get('n', count);
    });
    expect(before).toBe(0);
    expect(await cache.get('n', count)).toBe(1);
  });

  it('forgets after its TTL, which is never above the bound; 0 turns caching off', async () => {
    const short = createReadCaches(t.db, 30);
    expect(short.ttlMs).toBe(30);
    const cache = short.named<string>('test-ttl', ['agents']);
    await cache.get('k', async () => 'a');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await cache.get('k', async () => 'b')).toBe('b');

    expect(createReadCaches(t.db, 60_000).ttlMs).toBe(READ_CACHE_MAX_TTL_MS);
    const off = createReadCaches(t.db, 0).named<string>('test-off', ['agents']);
    const c = counter();
    await off.get('k', c.load('a'));
    await off.get('k', c.load('b'));
    expect(c.calls).toBe(2);
  });

  it('a statement text seen before a cache was added empties that cache too, each time it is sent again', async () => {
    const caches = createReadCaches(t.db, 5_000);
    const agents = caches.named<string>('test-texts-agents', ['agents']);
    const write = () => t.db('listings').where({ id: -1 }).update({ city: 'x' });
    // The text is worked out (for the agents cache alone) before the listings cache exists.
    await agents.get('k', async () => 'kept');
    await write();
    expect(await agents.get('k', async () => 'fresh')).toBe('kept');
    const listings = caches.named<string>('test-texts-listings', ['listings']);
    for (const value of ['a', 'b', 'c']) {
      expect(await listings.get('k', async () => value)).toBe(value);
      expect(await listings.get('k', async () => 'stale')).toBe(value);
      await write();
    }
    // Announced statements (a pipelined transaction's) go by their text alone.
    t.db.emit('query', { sql: 'update "agents" set name = name where id = -1' });
    expect(await agents.get('k', async () => 'emptied')).toBe('emptied');
  });

  it('a failed load is not kept', async () => {
    const cache = createReadCaches(t.db, 5_000).named<string>('test-fail', ['agents']);
    await expect(cache.get('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('k', async () => 'ok')).toBe('ok');
  });
});

describe('the cached agent-scoped reads', () => {
  it('an agent removed in this process (a merge) is refused at once, though its existence was cached', async () => {
    const { session, agent } = await wizardBrowser(t.newSession());
    await session.get(`/api/agents/${agent.id}/listings`).expect(200);
    await t.db('listings').where({ agentId: agent.id }).delete();
    await t.db('agents').where({ id: agent.id }).delete();
    expect((await session.get(`/api/agents/${agent.id}/listings`).expect(404)).body.code).toBe('agents.not_found');
  });

  it('a campaign changed by this process is read afresh', async () => {
    const { session, agent, listing } = await wizardBrowser(t.newSession());
    const { body: campaign } = await session.post('/api/campaigns').send(campaignDraftBody(agent.id, listing.id)).expect(201);
    expect((await session.get(`/api/campaigns/${campaign.id}`).expect(200)).body.status).toBe('draft');
    await t.db('campaigns').where({ id: campaign.id }).update({ status: 'canceled' });
    expect((await session.get(`/api/campaigns/${campaign.id}`).expect(200)).body.status).toBe('canceled');
  });
});
