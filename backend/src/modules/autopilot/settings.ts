import type { Knex } from 'knex';
import { AUTOPILOT_DEFAULTS, type AutopilotSettings, type AutopilotSettingsInput } from '@app/contracts';
import type { Db } from '../../platform/db/knex';

/** autopilot_settings, one row per agent; absent: off, with the defaults. */
interface SettingsRow {
  agentId: number;
  enabled: boolean;
  enabledAt: Date | null;
  justListed: boolean;
  justSold: boolean;
  priceImproved: boolean;
  budget: number;
  adFormat: 'single' | 'carousel';
  vetoWindowHours: number;
  pauseOnPending: boolean;
}

const TABLE = 'autopilotSettings';

function fromRow(row: SettingsRow | undefined): AutopilotSettings {
  if (!row) return { ...AUTOPILOT_DEFAULTS, triggers: { ...AUTOPILOT_DEFAULTS.triggers } };
  return {
    enabled: row.enabled,
    triggers: { justListed: row.justListed, justSold: row.justSold, priceImproved: row.priceImproved },
    budget: row.budget,
    adFormat: row.adFormat,
    vetoWindowHours: row.vetoWindowHours,
    pauseOnPending: row.pauseOnPending,
  };
}

export async function loadSettings(db: Db | Knex.Transaction, agentId: number): Promise<AutopilotSettings> {
  return fromRow((await db(TABLE).where({ agentId }).first()) as SettingsRow | undefined);
}

/** When the agent last turned autopilot on (null: never, or off): events from before are not acted on. */
export async function enabledSince(db: Db | Knex.Transaction, agentId: number): Promise<Date | null> {
  const row = (await db(TABLE).where({ agentId, enabled: true }).first('enabledAt')) as { enabledAt: Date | null } | undefined;
  return row?.enabledAt ?? null;
}

/** The agents (of these) with autopilot on, and their settings. */
export async function enabledSettings(db: Db | Knex.Transaction, agentIds: readonly number[]): Promise<Map<number, AutopilotSettings>> {
  if (!agentIds.length) return new Map();
  const rows = (await db(TABLE).whereIn('agentId', agentIds as number[]).where({ enabled: true })) as SettingsRow[];
  return new Map(rows.map((r) => [r.agentId, fromRow(r)]));
}

/** Save what the input names over what is stored (the defaults the first time). */
export async function saveSettings(db: Db, agentId: number, input: AutopilotSettingsInput): Promise<AutopilotSettings> {
  return db.transaction(async (trx) => {
    const current = await loadSettings(trx, agentId);
    const next: AutopilotSettings = {
      enabled: input.enabled ?? current.enabled,
      triggers: { ...current.triggers, ...Object.fromEntries(Object.entries(input.triggers ?? {}).filter(([, v]) => v !== undefined)) },
      budget: input.budget ?? current.budget,
      adFormat: input.adFormat ?? current.adFormat,
      vetoWindowHours: input.vetoWindowHours ?? current.vetoWindowHours,
      pauseOnPending: input.pauseOnPending ?? current.pauseOnPending,
    };
    const row = {
      enabled: next.enabled,
      justListed: next.triggers.justListed,
      justSold: next.triggers.justSold,
      priceImproved: next.triggers.priceImproved,
      budget: next.budget,
      adFormat: next.adFormat,
      vetoWindowHours: next.vetoWindowHours,
      pauseOnPending: next.pauseOnPending,
      // Turned on now (it was off): from now on its listings' events count.
      ...(next.enabled && !current.enabled ? { enabledAt: trx.fn.now() } : {}),
      updatedAt: trx.fn.now(),
    };
    await trx(TABLE).insert({ agentId, ...row }).onConflict('agentId').merge(Object.keys(row));
    return next;
  });
}
