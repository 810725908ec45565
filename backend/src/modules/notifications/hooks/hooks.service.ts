import type { Knex } from 'knex';
import { HOOKS_PER_AGENT, maskUrl, type HookCreated, type HookCreatePayload, type HookEvent, type HookView } from '@app/contracts';
import type { Db } from '../../../platform/db/knex';
import type { SecretBox } from '../../../platform/crypto/secret-box';
import { generateWebhookSecret } from '../settings/settings.service';
import { hookNotFound, tooManyHooks } from '../notifications.errors';
import { liveApiKeyIds } from '../../agents';

/** A REST hook subscribed through POST /api/v1/hooks (table notification_hooks). */
export interface HookRow {
  id: number;
  agentId: number;
  apiKeyId: number;
  event: HookEvent;
  targetUrl: string;
  secretEnc: string;
  createdAt: Date;
  /** Read with the hook for a delivery: whether the key that subscribed it is still live (not revoked). */
  keyLive?: boolean;
}

const toRow = (r: HookRow): HookRow => ({ ...r, id: Number(r.id), apiKeyId: Number(r.apiKeyId) });

/**
 * Subscribe `targetUrl` to the agent's `event`s, as Zapier, Make and n8n do when a Zap or scenario is
 * turned on. The same URL subscribed again answers the same hook (a client retrying its subscribe makes
 * one hook). The answer carries the signing secret (Standard Webhooks `whsec_…`).
 */
export async function subscribeHook(db: Db, box: SecretBox, agentId: number, apiKeyId: number, input: HookCreatePayload): Promise<HookCreated> {
  return db.transaction(async (trx) => {
    // One subscriber at a time per agent: the count and the insert agree.
    await trx.raw('select pg_advisory_xact_lock(hashtext(?), ?)', ['notification_hooks', agentId]);
    let row = (await trx('notificationHooks').where({ agentId, event: input.event, targetUrl: input.targetUrl }).first()) as HookRow | undefined;
    if (!row) {
      const [{ count }] = await trx('notificationHooks').where({ agentId }).count({ count: '*' });
      if (Number(count) >= HOOKS_PER_AGENT) throw tooManyHooks();
      [row] = (await trx('notificationHooks')
        .insert({ agentId, apiKeyId, event: input.event, targetUrl: input.targetUrl, secretEnc: box.seal(generateWebhookSecret()) })
        .returning('*')) as HookRow[];
    }
    const hook = toRow(row);
    return { id: hook.id, targetUrl: hook.targetUrl, event: hook.event, secret: box.open(hook.secretEnc), createdAt: new Date(hook.createdAt).toISOString() };
  });
}

/** Unsubscribe one of the agent's hooks. Another agent's hook is a 404, like an unknown one. */
export async function unsubscribeHook(db: Db, agentId: number, hookId: number): Promise<void> {
  const deleted = await db('notificationHooks').where({ id: hookId, agentId }).delete();
  if (!deleted) throw hookNotFound();
}

/** The agent's hooks for the dashboard: URLs masked (a hook URL is a credential). */
export async function listHooks(db: Db, agentId: number): Promise<HookView[]> {
  const rows = (await db('notificationHooks').where({ agentId }).orderBy('id', 'desc')) as HookRow[];
  return rows.map((r) => ({ id: Number(r.id), targetUrl: maskUrl(r.targetUrl), event: r.event, createdAt: new Date(r.createdAt).toISOString() }));
}

/** A hook for a delivery, with whether its key is live, in one statement (the key's liveness comes from the agents door). */
export async function loadHookForDelivery(db: Db, hookId: number): Promise<HookRow | undefined> {
  return (await loadHooksForDelivery(db, [hookId])).get(hookId);
}

/** `loadHookForDelivery` for several hooks in one statement: the hooks that still exist, by id. */
export async function loadHooksForDelivery(db: Db, hookIds: readonly number[]): Promise<Map<number, HookRow>> {
  if (!hookIds.length) return new Map();
  const rows = (await db('notificationHooks as h')
    .whereIn('h.id', [...new Set(hookIds)])
    .select('h.*', db.raw('h.api_key_id in (?) as key_live', [liveApiKeyIds(db)]))) as HookRow[];
  return new Map(rows.map((r) => [Number(r.id), toRow(r)]));
}

/** The ids of the agent's hooks for an event (the lead hand-over makes one message per hook). */
export async function hookIdsOf(db: Db | Knex.Transaction, agentId: number, event: HookEvent): Promise<number[]> {
  const rows = await db('notificationHooks').where({ agentId, event }).orderBy('id').select('id');
  return rows.map((r: { id: string | number }) => Number(r.id));
}

/** The subscriber answered 410 Gone: the hook is unsubscribed (its messages stay in the log, hook_id null). */
export async function deleteHook(trx: Knex.Transaction, hookId: number): Promise<void> {
  await trx('notificationHooks').where({ id: hookId }).delete();
}
