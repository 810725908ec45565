import type { AdminAutopilotState } from '@app/contracts';
import type { Db } from '../../platform/db/knex';
import { savedCardsSavedAt } from '../payments';
import { RUNS, toRun, type RunRow } from './runs';

/** `npm run ops -- autopilot list`: the newest runs (all agents, or one), with what the dashboard shows. */
export async function listRuns(db: Db, opts: { agentId?: number; limit?: number } = {}): Promise<RunRow[]> {
  const q = db(RUNS).orderBy('id', 'desc').limit(opts.limit ?? 50);
  if (opts.agentId) q.where({ agentId: opts.agentId });
  return (await q).map(toRun);
}

/** Each agent's autopilot as the admin list shows it: on or off, a card or not, drafts ahead, ads launched. */
export async function autopilotStatesForAdmin(db: Db, agentIds: readonly number[]): Promise<Map<number, AdminAutopilotState>> {
  const out = new Map<number, AdminAutopilotState>();
  if (!agentIds.length) return out;
  const ids = agentIds as number[];
  const [settings, runs, cards] = await Promise.all([
    db('autopilotSettings').whereIn('agentId', ids).select('agentId', 'enabled'),
    db(RUNS)
      .whereIn('agentId', ids)
      .groupBy('agentId')
      .select(
        'agentId',
        db.raw(`count(*) filter (where status in ('scheduled', 'charging', 'needs_card', 'needs_authentication', 'charge_failed'))::int as scheduled`),
        db.raw(`count(*) filter (where status = 'launched')::int as launched`),
        db.raw('max(updated_at) as last_run_at'),
      ),
    savedCardsSavedAt(db, ids),
  ]);
  const enabled = new Map((settings as { agentId: number; enabled: boolean }[]).map((s) => [s.agentId, s.enabled]));
  const counts = new Map((runs as unknown as { agentId: number; scheduled: number; launched: number; lastRunAt: Date | null }[]).map((r) => [r.agentId, r]));
  for (const id of ids) {
    const c = counts.get(id);
    out.set(id, { enabled: enabled.get(id) ?? false, hasCard: cards.has(id), scheduled: c?.scheduled ?? 0, launched: c?.launched ?? 0, lastRunAt: c?.lastRunAt ? new Date(c.lastRunAt).toISOString() : null });
  }
  return out;
}
