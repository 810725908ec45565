import type { AdminAgentsQuery, AdminTotals } from '@app/contracts';
import type { Db } from '../../platform/db/knex';

/**
 * READ MODEL for the admin agents list (GET /api/admin/agents), owned by the agents module.
 *
 * Why one SQL over agents, campaigns and payments (an exception to "a module reads only its own
 * tables", see modules/admin/CONTEXT.md): the filters (status = has active campaigns, with/without
 * campaigns), the sorts (total spent, campaigns) and the totals over the filtered set all depend on
 * per-agent aggregates of the other two modules' tables; asking each module's door for the figures of
 * 100,000 agents and joining them in Node would move hundreds of thousands of rows per request.
 * It only reads, and only these columns: campaigns (agent_id, status), payments (campaign_id,
 * status, amount_cents). The indexes that carry it are in 20261124140000_admin_add_list_indexes.
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
  createdAt: 'created_at',
  name: 'lower(name)',
  totalSpent: 'spent_cents',
  totalCampaigns: 'total_campaigns',
};

/** `%` and `_` typed by the admin are literal characters, not wildcards. */
const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listAgentsForAdmin(db: Db, q: AdminAgentsQuery): Promise<AdminAgentList> {
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
  const statsWhere: string[] = [];
  if (q.status === 'active') statsWhere.push('active_campaigns > 0');
  if (q.status === 'inactive') statsWhere.push('active_campaigns = 0');
  if (q.campaigns === 'with') statsWhere.push('total_campaigns > 0');
  if (q.campaigns === 'none') statsWhere.push('total_campaigns = 0');

  const sql = `
    with filtered_agents as (
      select a.id, a.name, a.email, a.created_at from agents a
       ${where.length ? `where ${where.join(' and ')}` : ''}
    ),
    campaign_stats as (
      select c.agent_id,
             count(*)::int as total_campaigns,
             count(*) filter (where c.status = 'active')::int as active_campaigns
        from campaigns c
       where c.agent_id in (select id from filtered_agents)
       group by c.agent_id
    ),
    spent as (
      select c.agent_id, sum(p.amount_cents)::bigint as spent_cents
        from payments p join campaigns c on c.id = p.campaign_id
       where p.status = 'succeeded' and c.agent_id in (select id from filtered_agents)
       group by c.agent_id
    ),
    listed as (
      select fa.id, fa.name, fa.email, fa.created_at,
             coalesce(cs.total_campaigns, 0) as total_campaigns,
             coalesce(cs.active_campaigns, 0) as active_campaigns,
             coalesce(sp.spent_cents, 0) as spent_cents
        from filtered_agents fa
        left join campaign_stats cs on cs.agent_id = fa.id
        left join spent sp on sp.agent_id = fa.id
    ),
    matched as (select * from listed ${statsWhere.length ? `where ${statsWhere.join(' and ')}` : ''}),
    totals as (
      select count(*)::int as agents, coalesce(sum(total_campaigns), 0)::int as campaigns,
             coalesce(sum(active_campaigns), 0)::int as active_campaigns, coalesce(sum(spent_cents), 0)::bigint as revenue_cents
        from matched
    ),
    page as (
      select * from matched order by ${SORT_SQL[q.sort]} ${q.order}, id ${q.order} limit ? offset ?
    )
    select t.agents as t_agents, t.campaigns as t_campaigns, t.active_campaigns as t_active, t.revenue_cents as t_revenue, p.*
      from totals t left join page p on true`;
  bindings.push(q.pageSize, (q.page - 1) * q.pageSize);
  const { rows } = await db.raw<{ rows: Record<string, any>[] }>(sql, bindings as never);
  const first = rows[0];
  const revenueCents = Number(first?.t_revenue ?? 0);
  return {
    rows: rows
      .filter((r) => r.id != null)
      .map((r) => ({
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
      revenueCents,
    },
  };
}
