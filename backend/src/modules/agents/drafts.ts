import type { Knex } from 'knex';
import type { Db } from '../../platform/db/knex';

/**
 * Branding drafts (DESIGN §3): wizard step 4 from a browser that is not signed in as the agent is kept as that
 * browser's draft for the identity, never written to the agent. The wizard previews it at once (GET answers the
 * merged view to that browser), a campaign that browser creates uses it for the ad, and it reaches the agent
 * only when a signed-in session saves it, or when this very browser opens the verification link.
 */

/** The branding fields a draft may hold (a key present is drafted; null clears the agent's value). */
export const DRAFT_FIELDS = ['name', 'email', 'phone', 'brokerage', 'profileImageUrl', 'logoUrl'] as const;
export type DraftField = (typeof DRAFT_FIELDS)[number];
export type DraftFields = Partial<Record<DraftField, string | null>>;

const TABLE = 'agent_drafts';

/** The draft fields present in a PUT body (absent = unchanged). */
export function draftFieldsOf(input: Partial<Record<DraftField, string | null | undefined>>): DraftFields {
  const out: DraftFields = {};
  for (const field of DRAFT_FIELDS) if (input[field] !== undefined) out[field] = input[field] ?? null;
  return out;
}

export async function loadDraft(db: Db | Knex.Transaction, agentId: number, browserHash: string | null): Promise<DraftFields | null> {
  if (!browserHash) return null;
  const row = await db(TABLE).where({ agentId, browserHash }).first('fields');
  return row ? (row.fields as DraftFields) : null;
}

/** Merge these fields into this browser's draft for the agent (one upsert); answers the whole draft. */
export async function saveDraft(db: Db, agentId: number, browserHash: string, fields: DraftFields): Promise<DraftFields> {
  const [row] = await db(TABLE)
    .insert({ agentId, browserHash, fields: JSON.stringify(fields) })
    .onConflict(['agentId', 'browserHash'])
    .merge({ fields: db.raw(`${TABLE}.fields || excluded.fields`), updatedAt: db.fn.now() })
    .returning('fields');
  return row.fields as DraftFields;
}

/** Take this browser's draft for the agent out of the table (it is being applied): the fields, or null. */
export async function takeDraft(trx: Knex.Transaction, agentId: number, browserHash: string | null): Promise<DraftFields | null> {
  if (!browserHash) return null;
  const [row] = await trx(TABLE).where({ agentId, browserHash }).delete().returning('fields');
  return row ? (row.fields as DraftFields) : null;
}

/** A draft laid over a profile: the drafted fields win. */
export function withDraft<P extends Record<DraftField, string | null>>(profile: P, draft: DraftFields | null): P {
  return draft ? { ...profile, ...draft } : profile;
}
