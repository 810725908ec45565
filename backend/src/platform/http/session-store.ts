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

/**
 * End every stored session's access to an agent (DESIGN §6: verifying an email, resetting or changing a
 * password): sessions logged in as it are deleted, and it leaves the wizard ownership list of every
 * other session. Works on the stored rows, so every process sees it (a read cache holds a row for a few
 * seconds at most). The calling request's own session is written afresh when it commits.
 */
export async function revokeAgentSessions(db: Db, agentId: number): Promise<{ deleted: number; disowned: number }> {
  const deleted = await db('sessions').whereRaw(`data->>'agentId' = ?`, [String(agentId)]).delete();
  const result = await db.raw(
    `update sessions
        set data = jsonb_set(data, '{ownedAgentIds}',
              coalesce((select jsonb_agg(e) from jsonb_array_elements(data->'ownedAgentIds') e where e <> to_jsonb(?::int)), '[]'::jsonb)),
            updated_at = now()
      where jsonb_typeof(data->'ownedAgentIds') = 'array' and data->'ownedAgentIds' @> jsonb_build_array(?::int)`,
    [agentId, agentId],
  );
  return { deleted, disowned: (result as { rowCount: number }).rowCount };
}
