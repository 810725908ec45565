import type { AdminAgentsPage, AdminAgentsQuery, AdminAutopilotState, AdminFailedWork } from '@app/contracts';
import type { FailedJob } from '../../platform/jobs/ops';
import type { AdminAgentList } from '../agents';
import type { AdminCampaignRow, FailedLaunch } from '../campaigns';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** Spec §3 Admin agent rows (totalSpent in dollars) with their campaigns, and the totals over the filtered set. */
const AUTOPILOT_OFF: AdminAutopilotState = { enabled: false, hasCard: false, scheduled: 0, launched: 0, lastRunAt: null };

export function presentAgentsPage(list: AdminAgentList, campaigns: AdminCampaignRow[], q: AdminAgentsQuery, autopilot: Map<number, AdminAutopilotState> = new Map()): AdminAgentsPage {
  const byAgent = new Map<number, AdminCampaignRow[]>();
  for (const c of campaigns) byAgent.set(c.agentId, [...(byAgent.get(c.agentId) ?? []), c]);
  const { revenueCents: _cents, ...totals } = list.totals;
  return {
    agents: list.rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      createdAt: iso(r.createdAt),
      campaigns: (byAgent.get(r.id) ?? []).map((c) => ({
        id: c.id,
        status: c.status,
        headline: c.headline,
        mlsListingId: c.mlsListingId,
        impressionsRequested: c.impressionsRequested,
        impressionsDelivered: c.impressionsDelivered,
        clicks: c.clicks,
        createdAt: iso(c.createdAt),
      })),
      totalCampaigns: r.totalCampaigns,
      activeCampaigns: r.activeCampaigns,
      totalSpent: r.spentCents / 100,
      autopilot: autopilot.get(r.id) ?? AUTOPILOT_OFF,
    })),
    totals,
    page: q.page,
    pageSize: q.pageSize,
    total: totals.agents,
  };
}

export function presentFailedWork(launches: FailedLaunch[], jobs: FailedJob[]): AdminFailedWork {
  return {
    launches: launches.map((l) => ({ ...l, failedAt: iso(l.failedAt) })),
    jobs: jobs.map((j) => ({
      id: j.id,
      queue: j.queue,
      sourceQueue: j.sourceQueue,
      retryCount: j.retryCount,
      error: j.error,
      at: iso(j.completedOn ?? j.createdOn),
    })),
  };
}
