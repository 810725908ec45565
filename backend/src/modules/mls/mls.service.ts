import type { Db } from '../../platform/db/knex';
import type { Logger } from '../../platform/logger';
import type { Agent, MlsMember } from '../agents';
import { upsertMlsListings } from '../listings';
import { MlsProviderError, type MlsProvider } from './providers';
import { agentNotFoundInMls, mlsIdMismatch, noListings, providerUnavailable } from './mls.errors';

/** Ask the provider; its failures become the 502 the wizard answers with manual entry. */
async function ask<T>(call: () => Promise<T>, log: Logger, what: string): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof MlsProviderError) {
      log.warn({ err: err.message }, `MLS ${what} failed`);
      throw providerUnavailable();
    }
    throw err;
  }
}

/** The first active MLS member with this name in this state; 404 "No active agent found…" otherwise. */
export async function searchAgent(provider: MlsProvider, name: string, state: string, log: Logger): Promise<MlsMember> {
  const members = await ask(() => provider.searchMembers(name, state), log, 'agent search');
  if (!members.length) throw agentNotFoundInMls(name, state);
  return members[0];
}

export interface ImportResult {
  loaded: number;
  skipped: number;
}

/**
 * Fetch a member's listings and upsert them for our agent, in one transaction, a few statements
 * whatever the number of listings. Loading again refreshes the same rows. The route and the
 * benchmark both run this.
 */
export async function importMlsListings(opts: { db: Db; provider: MlsProvider; agentId: number; memberMlsId: string; log: Logger }): Promise<ImportResult> {
  const batch = await ask(() => opts.provider.listingsForAgent(opts.memberMlsId), opts.log, 'listings load');
  if (!batch.listings.length) throw noListings();
  const loaded = await opts.db.transaction((trx) => upsertMlsListings(trx, opts.agentId, batch.listings));
  opts.log.info({ agentId: opts.agentId, loaded, skipped: batch.skipped, ignored: batch.ignored }, 'MLS listings loaded');
  return { loaded, skipped: batch.skipped };
}

/**
 * POST /api/mls/load for an agent the session may access. Only an MLS agent (found by this
 * session's search) has an MLS identity: a manual agent gets the no-listings answer without asking
 * the MLS (the wizard sends its agent id as the mlsId, which could be anyone's member id), and the
 * mlsId sent must be the agent's own.
 */
export async function loadListingsForAgent(opts: { db: Db; provider: MlsProvider; agent: Agent; mlsId: string; log: Logger }): Promise<ImportResult> {
  const { agent } = opts;
  if (agent.source !== 'mls' || !agent.mlsId) throw noListings();
  if (opts.mlsId !== agent.mlsId) throw mlsIdMismatch();
  return importMlsListings({ db: opts.db, provider: opts.provider, agentId: agent.id, memberMlsId: agent.mlsId, log: opts.log });
}
