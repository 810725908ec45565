import crypto from 'node:crypto';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { createDb, type Db } from '../db/knex';
import supertest from 'supertest';
import type { Context } from 'koa';
import { createApp } from '../../app';
import { createLogger } from '../logger';
import { postgresSessionStore, SESSION_CACHE_TTL_MS, SESSION_VERSION_COOKIE } from './session-store';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** Statements that read or write the sessions table while `fn` runs. */
async function sessionQueries(fn: () => Promise<unknown>, db: Db = t.db): Promise<string[]> {
  const seen: string[] = [];
  const listen = (q: { sql: string }) => {
    if (/"sessions"/.test(q.sql)) seen.push(q.sql);
  };
  db.on('query', listen);
  try {
    await fn();
  } finally {
    db.off('query', listen);
  }
  return seen;
}

const wizardAgent = { name: 'Dana Whitfield', state: 'FL', manualEntry: true };

describe('session reads through the app', () => {
  it('reads a session row once, then from memory, for a browser with a cookie', async () => {
    const browser = t.newSession();
    const { body: agent } = await browser.post('/api/agents').send(wizardAgent).expect(201);
    const reads = await sessionQueries(async () => {
      for (let i = 0; i < 5; i++) await browser.get(`/api/agents/${agent.id}/listings`).expect(200);
    });
    expect(reads.filter((q) => q.startsWith('select'))).toHaveLength(0);
  });

  it('serves /api/health and /api/ready without reading the session', async () => {
    const browser = t.newSession();
    await browser.post('/api/agents').send(wizardAgent).expect(201);
    // A cold cache: any session read would show.
    await t.db('sessions').update({ updatedAt: t.db.fn.now() });
    const reads = await sessionQueries(async () => {
      await browser.get('/api/health').expect(200);
      await browser.get('/api/ready').expect(200);
    });
    expect(reads).toEqual([]);
  });

  it('logout ends the session at once in this process, even for a copy of the old cookie', async () => {
    const created = await t.request.post('/api/agents').send(wizardAgent).expect(201);
    const cookie = (created.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    const agentId = created.body.id;
    await t.request.get(`/api/agents/${agentId}/listings`).set('Cookie', cookie).expect(200);
    await t.request.post('/api/auth/logout').set('Cookie', cookie).expect(200);
    await t.request.get(`/api/agents/${agentId}/listings`).set('Cookie', cookie).expect(404);
  });

  it('a revocation (session rows deleted by other code) holds at once in this process', async () => {
    const browser = t.newSession();
    const { body: agent } = await browser.post('/api/agents').send(wizardAgent).expect(201);
    await browser.get(`/api/agents/${agent.id}/listings`).expect(200);
    await t.db('sessions').whereRaw(`data->'wizardAgentIds' @> ?::jsonb`, [JSON.stringify([agent.id])]).delete();
    await browser.get(`/api/agents/${agent.id}/listings`).expect(404);
  });
});

describe('postgresSessionStore across processes', () => {
  let other: Db;
  beforeAll(() => {
    // A second connection pool stands for a second app process on the same database.
    other = createDb(t.config.DATABASE_URL!, { max: 2 });
  });
  afterAll(() => other.destroy());

  it('sees a logout or revocation made by another process within the cache TTL, never later', async () => {
    let now = 1_000_000;
    const clock = { now: () => now };
    const mine = postgresSessionStore(t.db, { clock });
    const theirs = postgresSessionStore(other);
    const sid = crypto.randomUUID();
    await theirs.set(sid, { wizardAgentIds: [7] }, 60_000);

    expect(await mine.get(sid)).toEqual({ wizardAgentIds: [7] });
    await theirs.destroy(sid);
    // Until the TTL runs out this process may still answer from memory (a few seconds of staleness)…
    now += SESSION_CACHE_TTL_MS - 1;
    expect(await mine.get(sid)).toEqual({ wizardAgentIds: [7] });
    // …and then it reads the row again: the session is gone.
    now += 2;
    expect(await mine.get(sid)).toBeNull();
  });

  it("answers from memory only the version of the session the browser was last given: another process's write is read at once", async () => {
    const mine = postgresSessionStore(t.db);
    const theirs = postgresSessionStore(other);
    // A browser's cookie jar, as koa-session hands the store its request.
    const jar = new Map<string, string>();
    const ctx = { cookies: { get: (k: string) => jar.get(k), set: (k: string, v: string) => void jar.set(k, v) } } as unknown as Context;
    const sid = crypto.randomUUID();
    await theirs.set(sid, { ownedAgentIds: [7] }, 60_000, { ctx });
    expect(await mine.get(sid, undefined, { ctx })).toEqual({ ownedAgentIds: [7] });
    const first = jar.get(SESSION_VERSION_COOKIE);
    // The other process writes this browser's session (a new agent in the wizard): the browser holds the new version…
    await theirs.set(sid, { ownedAgentIds: [7, 8] }, 60_000, { ctx });
    expect(jar.get(SESSION_VERSION_COOKIE)).not.toBe(first);
    // …so this process reads the row again, within the cache TTL.
    expect(await mine.get(sid, undefined, { ctx })).toEqual({ ownedAgentIds: [7, 8] });
    // A copy of the cookie from before still gets the row read (a mismatch costs a read, nothing more), and is told the version.
    const stale = new Map([[SESSION_VERSION_COOKIE, first!]]);
    const staleCtx = { cookies: { get: (k: string) => stale.get(k), set: (k: string, v: string) => void stale.set(k, v) } } as unknown as Context;
    expect(await mine.get(sid, undefined, { ctx: staleCtx })).toEqual({ ownedAgentIds: [7, 8] });
    expect(stale.get(SESSION_VERSION_COOKIE)).toBe(jar.get(SESSION_VERSION_COOKIE));
  });

  it('a wizard browser whose requests alternate between two app processes finds its new agent at once', async () => {
    // Two apps on one database, each with its own session cache: two processes behind a round-robin balancer.
    const apps = [t.request, supertest(createApp({ config: t.config, db: other, logger: createLogger('silent'), queue: t.queue }).callback())];
    const cookies = new Map<string, string>();
    let turn = 0;
    const send = async (method: 'get' | 'post', path: string, body?: object) => {
      const req = apps[turn++ % 2][method](path).set('Cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
      const res = await (body ? req.send(body) : req);
      for (const c of (res.headers['set-cookie'] as unknown as string[] | undefined) ?? []) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        cookies.set(pair.slice(0, i), pair.slice(i + 1));
      }
      return res;
    };
    await send('get', '/api/auth/me'); // process 1: no session yet
    const first = await send('post', '/api/agents', wizardAgent); // process 2 writes the session
    expect(first.status).toBe(201);
    expect((await send('get', `/api/agents/${first.body.id}/listings`)).status).toBe(200); // process 1 caches it
    const second = await send('post', '/api/agents', { ...wizardAgent, name: 'Dana Second' }); // process 2 writes it again
    expect(second.status).toBe(201);
    // Process 1 holds the session from before the second agent: without the version it would answer 404 for 5 s.
    expect((await send('get', `/api/agents/${second.body.id}/listings`)).status).toBe(200);
  });

  it('hands every caller its own copy of the cached session', async () => {
    const store = postgresSessionStore(t.db);
    const sid = crypto.randomUUID();
    await store.set(sid, { wizardAgentIds: [1] }, 60_000);
    const first = await store.get(sid);
    first.wizardAgentIds.push(2);
    expect(await store.get(sid)).toEqual({ wizardAgentIds: [1] });
  });

  it('hands out cached sessions as JSON.parse would: nested values copied, a __proto__ key kept as a plain key', async () => {
    const store = postgresSessionStore(t.db);
    const sid = crypto.randomUUID();
    const data = JSON.parse('{"nested":{"list":[1,{"a":"b"}],"flag":true,"none":null},"__proto__":{"polluted":true},"n":1.5}');
    await store.set(sid, data, 60_000);
    const first = await store.get(sid);
    expect(JSON.stringify(first)).toBe(JSON.stringify(data));
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(first, '__proto__')).toBe(true);
    expect((first as { polluted?: unknown }).polluted).toBeUndefined();
    first.nested.list[1].a = 'changed';
    first.nested.list.push(3);
    const second = await store.get(sid);
    expect(JSON.stringify(second)).toBe(JSON.stringify(data));
    // The row read from the database is cached as a copy too: changing what get() returned changes nothing.
    store.cache!.clear();
    const fromRow = await store.get(sid);
    fromRow.nested.flag = false;
    expect((await store.get(sid)).nested.flag).toBe(true);
  });

  it('does not answer an expired session from memory', async () => {
    const store = postgresSessionStore(t.db);
    const sid = crypto.randomUUID();
    await store.set(sid, { admin: true }, 1);
    await new Promise((r) => setTimeout(r, 5));
    expect(await store.get(sid)).toBeNull();
  });
});
