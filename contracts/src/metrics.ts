/** Dashboard and admin metrics rules (spec 001 §2, §4, §9). */

export const DEFAULT_IMPRESSION_GOAL = 50000;
/** Shown when an agent has no metrics yet. */
export const DEFAULT_PROGRESS_PERCENT = 75;
export const ENGAGEMENT_FACTOR = 1.2;

/** Engagements = round(totalClicks × 1.2). */
export function engagements(totalClicks: number): number {
  if (!Number.isFinite(totalClicks)) return 0;
  // × 6 / 5 is exact in integers, unlike × 1.2.
  return Math.round((totalClicks * 6) / 5);
}

/**
 * Whole percent of a goal, not capped, floored (so 100 means the goal is really reached).
 * 0 when the goal is missing or not positive.
 */
export function percentOfGoal(delivered: number, goal: number | null | undefined): number {
  if (!Number.isFinite(delivered) || !goal || !(goal > 0)) return 0;
  return Math.max(0, Math.floor((delivered * 100) / goal));
}

/**
 * Campaign progress on the dashboard: percent of the impression goal (default 50000),
 * capped at 100; 75 when there are no metrics (totalImpressions null/undefined).
 */
export function progressPercent(
  totalImpressions: number | null | undefined,
  impressionGoal: number | null | undefined = DEFAULT_IMPRESSION_GOAL,
): number {
  if (totalImpressions === null || totalImpressions === undefined || !Number.isFinite(totalImpressions)) {
    return DEFAULT_PROGRESS_PERCENT;
  }
  const goal = impressionGoal && impressionGoal > 0 ? impressionGoal : DEFAULT_IMPRESSION_GOAL;
  return Math.min(100, percentOfGoal(totalImpressions, goal));
}

/** 'Goal Achieved!' at 100, otherwise 'Progress to Goal'. */
export function progressLabel(percent: number): 'Goal Achieved!' | 'Progress to Goal' {
  return percent >= 100 ? 'Goal Achieved!' : 'Progress to Goal';
}

export type GoalBadgeTone = 'complete' | 'warning' | 'low' | 'active';

export interface GoalBadge {
  label: 'Goal Reached' | 'Near Goal' | 'Low Performance' | 'Active';
  tone: GoalBadgeTone;
}

/** Admin badge by percent of requested impressions: ≥100, ≥80, <20, otherwise Active. */
export function goalBadge(percent: number): GoalBadge {
  if (percent >= 100) return { label: 'Goal Reached', tone: 'complete' };
  if (percent >= 80) return { label: 'Near Goal', tone: 'warning' };
  if (percent < 20) return { label: 'Low Performance', tone: 'low' };
  return { label: 'Active', tone: 'active' };
}

/** Campaign statuses in words, for people (the wire keeps the codes). */
export const CAMPAIGN_STATUS_LABELS: Record<string, string> = {
  draft: 'Draft',
  pending_payment: 'Awaiting payment',
  paid: 'Paid',
  launching: 'Launching',
  active: 'Active',
  completed: 'Completed',
  launch_failed: 'Launch failed',
  canceled: 'Canceled',
};

export function campaignStatusLabel(status: string): string {
  return CAMPAIGN_STATUS_LABELS[status] ?? status.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/**
 * The goal badge of a campaign, only where it means something: one that delivers or has delivered (active,
 * completed). A draft, an unpaid or a launching campaign has no delivery to judge, so no "Low Performance".
 */
export function campaignGoalBadge(c: { status: string; impressionsDelivered: number; impressionsRequested: number }): GoalBadge | null {
  if (c.status !== 'active' && c.status !== 'completed') return null;
  return goalBadge(percentOfGoal(c.impressionsDelivered, c.impressionsRequested));
}

/** Admin agent status: Active when the agent has at least one active campaign. */
export function agentActivityStatus(activeCampaigns: number): 'Active' | 'Inactive' {
  return activeCampaigns > 0 ? 'Active' : 'Inactive';
}
