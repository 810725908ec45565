import type { AdminAgentsQuery, AdminTotals } from '@app/contracts';
import type { ReadCaches } from '../../platform/cache/read-cache';
import type { Db } from '../../platform/db/knex';

/**
 * READ MODEL for the admin agents list (GET /api/admin/agents), owned by the agents module.
 *
 * The per-agent figures (total and active campaigns, succeeded payments in cents) live on the agents row,
 * kept by triggers on campaigns and payments in the same transaction as every write to them
 * (20261125140000_agents_add_campaign_stats): the list reads one table, and its totals are held a few
 * seconds in the read cache. Before that it aggregated 300,000
 * campaigns and payments per request (seconds at 100,000 agents). See modules/admin/CONTEXT.md.
 */

export interface AdminAgentListRow {
  id: number;
  name: string;
  email: string | null;
  createdAt: Date;
  totalCampaigns: number;
  activeCampaigns: number;
  /** Sum of succeeded payments, in cents. */
  spentCents: number;
}

export interface AdminAgentList {
  rows: AdminAgentListRow[];
  totals: AdminTotals & { revenueCents: number };
}

const CREATED_DAYS: Record<Exclude<AdminAgentsQuery['created'], 'all' | 'today'>, number> = { '7d': 7, '30d': 30, '90d': 90 };
const SORT_SQL: Record<AdminAgentsQuery['sort'], string> = {
  createdAt: 'a.created_at',
  name: 'lower(a.name)',
  totalSpent: 'a.spent_cents',
  totalCampaigns: 'a.total_campaigns',
};

/** `%` and `_` typed by the admin are literal characters, not wildcards. */
const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listAgentsForAdmin({ db, caches }: { db: Db; caches?: ReadCaches }, q: AdminAgentsQuery): Promise<AdminAgentList> {
  const where: string[] = [];
  const bindings: unknown[] = [];
  if (q.search) {
    where.push(`(a.name ilike ? or a.email ilike ?)`);
    bindings.push(likePattern(q.search), likePattern(q.search));
  }
  if (q.created === 'today') where.push(`a.created_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`);
  else if (q.created !== 'all') {
    where.push(`a.created_at >= now() - make_interval(days => ?)`);
    bindings.push(CREATED_DAYS[q.created]);
  }
  if (q.status === 'active') where.push('a.active_campaigns > 0');
  if (q.status === 'inactive') where.push('a.active_campaigns = 0');
  if (q.campaigns === 'with') where.push('a.total_campaigns > 0');
  if (q.campaigns === 'none') where.push('a.total_campaigns = 0');
  const filter = where.length ? `where ${where.join(' and ')}` : '';

  // The totals (a pass over every matching agent) are held a few seconds per filter in the read cache,
  // emptied by this process's writes to agents (the campaign and payment triggers write agents rows in
  // the same statements' transactions, so a write to campaigns or payments empties it too). The page walks
  // a sort index and stops after pageSize rows; the two run side by side.
  const filterKey = JSON.stringify([q.search ?? '', q.created, q.status, q.campaigns]);
  const totalsQuery = async () => {
    const { rows } = await db.raw<{ rows: Record<string, any>[] }>(
      `select count(*)::int as t_agents, coalesce(sum(a.total_campaigns), 0)::int as t_campaigns,
              coalesce(sum(a.active_campaigns), 0)::int as t_active, coalesce(sum(a.spent_cents), 0)::bigint as t_paid,
              coalesce(sum(a.credited_cents), 0)::bigint as t_credited
         from agents a ${filter}`,
      bindings as never,
    );
    return rows[0];
  };
  const pageQuery = db.raw<{ rows: Record<string, any>[] }>(
    `select a.id, a.name, a.email, a.created_at, a.total_campaigns, a.active_campaigns, a.spent_cents
       from agents a ${filter}
      order by ${SORT_SQL[q.sort]} ${q.order}, a.id ${q.order}
      limit ? offset ?`,
    [...bindings, q.pageSize, (q.page - 1) * q.pageSize] as never,
  );
  const [first, { rows }] = await Promise.all([
    caches ? caches.named<Record<string, any>>('admin-agent-totals', ['agents', 'campaigns', 'payments', 'campaign_credits', 'credit_ledger']).get(filterKey, totalsQuery) : totalsQuery(),
    pageQuery,
  ]);
  // Revenue net of credits: what was paid, less refunds made and account credit outstanding (credited_cents).
  const creditedCents = Number(first?.t_credited ?? 0);
  const revenueCents = Number(first?.t_paid ?? 0) - creditedCents;
  return {
    rows: rows.map((r) => ({
        id: r.id,
        name: r.name,
        email: r.email,
        createdAt: r.created_at,
        totalCampaigns: r.total_campaigns,
        activeCampaigns: r.active_campaigns,
        spentCents: Number(r.spent_cents),
      })),
    totals: {
      agents: first?.t_agents ?? 0,
      campaigns: first?.t_campaigns ?? 0,
      activeCampaigns: first?.t_active ?? 0,
      revenue: revenueCents / 100,
      credits: creditedCents / 100,
      revenueCents,
    },
  };
}
