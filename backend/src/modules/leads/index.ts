// The leads module's only door: leads from the public listing pages, and an agent's leads.
import crypto from 'node:crypto';
import type Router from '@koa/router';
import type { AppDeps } from '../../platform/deps';
import { LeadFormTokens } from './form-token';
export { formTokenStep, FORM_TOKEN_STEP_MS, LeadFormTokens } from './form-token';
import { leadsRouter as makeLeadsRouter } from './leads.routes';
import { leadWriter } from './leads.service';

const tokensByApp = new WeakMap<AppDeps, LeadFormTokens>();

/** The form-token signer of this app (the listing pages put a token in every page they render). */
export function leadFormTokens(deps: AppDeps): LeadFormTokens {
  let tokens = tokensByApp.get(deps);
  if (!tokens) {
    // SESSION_SECRET is always set by the server (generated into DATA_DIR when not configured); a process
    // without one (a bare script) signs with a key of its own, valid only in that process.
    tokens = new LeadFormTokens(deps.config.SESSION_SECRET ?? crypto.randomBytes(32).toString('hex'));
    tokensByApp.set(deps, tokens);
  }
  return tokens;
}

export function leadsRouter(deps: AppDeps): Router {
  const stores = { db: deps.db, queue: deps.queue, config: deps.config, caches: deps.caches };
  return makeLeadsRouter({ ...stores, tokens: leadFormTokens(deps), writer: leadWriter(stores) });
}

export { LEAD_IP_LIMIT, LEAD_LISTING_LIMIT, moveAgentLeads } from './leads.service';
