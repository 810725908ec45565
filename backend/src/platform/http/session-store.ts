import type { Db } from '../db/knex';

/** koa-session external store in the `sessions` table (server-side sessions; the cookie holds only the id). */
export function postgresSessionStore(db: Db) {
  return {
    async get(sid: string) {
      const row = await db('sessions').where({ sid }).andWhere('expiresAt', '>', db.fn.now()).first('data');
      return row?.data ?? null;
    },
    async set(sid: string, data: Record<string, unknown>, maxAge: number | 'session' | undefined) {
      const ms = typeof maxAge === 'number' ? maxAge : 24 * 60 * 60 * 1000;
      const expiresAt = new Date(Date.now() + ms);
      await db('sessions')
        .insert({ sid, data: JSON.stringify(data), expiresAt, updatedAt: db.fn.now() })
        .onConflict('sid')
        .merge(['data', 'expiresAt', 'updatedAt']);
    },
    async destroy(sid: string) {
      await db('sessions').where({ sid }).delete();
    },
  };
}
