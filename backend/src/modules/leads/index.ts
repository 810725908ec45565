// The leads module's only door: leads from the public listing pages, and an agent's leads.
import crypto from 'node:crypto';
import type Router from '@koa/router';
import type { AppDeps } from '../../platform/deps';
import { LeadFormTokens } from './form-token';
import { LeadProofs } from './lead-proof';
export { formTokenStep, FORM_TOKEN_STEP_MS, LeadFormTokens } from './form-token';
import { leadsRouter as makeLeadsRouter } from './leads.routes';
import { leadsRoutes } from './leads.routes';
import type { RouteSpec } from '../../platform/http/route';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const leadsRouteSpecs: RouteSpec[] = Object.values(leadsRoutes);
import { leadWriter } from './leads.service';

const tokensByApp = new WeakMap<AppDeps, LeadFormTokens>();
/** A process without SESSION_SECRET (a bare script) signs with a key of its own, valid only in that process. */
const secretOf = (deps: AppDeps) => deps.config.SESSION_SECRET ?? (fallbackSecret ??= crypto.randomBytes(32).toString('hex'));
let fallbackSecret: string | undefined;

/** The form-token signer of this app (the listing pages put a token in every page they render). */
export function leadFormTokens(deps: AppDeps): LeadFormTokens {
  let tokens = tokensByApp.get(deps);
  if (!tokens) {
    // SESSION_SECRET is always set by the server (generated into DATA_DIR when not configured); a process
    // without one (a bare script) signs with a key of its own, valid only in that process.
    tokens = new LeadFormTokens(secretOf(deps));
    tokensByApp.set(deps, tokens);
  }
  return tokens;
}

export function leadsRouter(deps: AppDeps): Router {
  const stores = { db: deps.db, queue: deps.queue, config: deps.config, caches: deps.caches };
  return makeLeadsRouter({ ...stores, tokens: leadFormTokens(deps), proofs: new LeadProofs(secretOf(deps)), writer: leadWriter(stores) });
}

export { LEAD_IP_LIMIT, moveAgentLeads } from './leads.service';
export { LEAD_GUARD_THRESHOLD } from './lead-guard';
export { LEAD_PROOF_DIFFICULTY } from './lead-proof';

/**
 * Leads per listing within a window, as counts (reports: never names or contacts): one query for many
 * windows, keyed as the caller likes.
 */
export async function countLeadsInWindows(db: import('../../platform/db/knex').Db, windows: { key: number; listingId: number; from: Date; to: Date }[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!windows.length) return out;
  const { rows } = await db.raw<{ rows: { key: number; n: number }[] }>(
    `select w.key, count(l.id)::int as n
       from jsonb_to_recordset(?::jsonb) as w(key int, listing_id int, "from" timestamptz, "to" timestamptz)
       left join leads l on l.listing_id = w.listing_id and l.created_at >= w."from" and l.created_at < w."to"
      group by w.key`,
    [JSON.stringify(windows.map((w) => ({ key: w.key, listing_id: w.listingId, from: w.from.toISOString(), to: w.to.toISOString() })))],
  );
  for (const r of rows) out.set(r.key, r.n);
  return out;
}
