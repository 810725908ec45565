import {
  campaignGoalBadge,
  campaignStatusLabel,
  DEFAULT_IMPRESSION_GOAL,
  DEFAULT_PROGRESS_PERCENT,
  agentActivityStatus,
  engagements,
  goalBadge,
  percentOfGoal,
  progressLabel,
  progressPercent,
} from './metrics.js';
import { formatCompact } from './format.js';

describe('engagements', () => {
  it('is round(clicks × 1.2)', () => {
    expect(engagements(0)).toBe(0);
    expect(engagements(10)).toBe(12);
    expect(engagements(7)).toBe(8); // 8.4
    expect(engagements(8)).toBe(10); // 9.6
    expect(engagements(1234)).toBe(1481); // 1480.8
  });
});

describe('progressPercent', () => {
  it('defaults to a 50000 goal shown as 50K', () => {
    expect(DEFAULT_IMPRESSION_GOAL).toBe(50000);
    expect(formatCompact(DEFAULT_IMPRESSION_GOAL)).toBe('50K');
    expect(progressPercent(25000)).toBe(50);
    expect(progressPercent(25000, null)).toBe(50);
    expect(progressPercent(25000, 0)).toBe(50);
  });
  it('is the percent of the given goal, floored', () => {
    expect(progressPercent(1000, 4000)).toBe(25);
    expect(progressPercent(49999, 50000)).toBe(99);
  });
  it('is capped at 100', () => {
    expect(progressPercent(50000, 50000)).toBe(100);
    expect(progressPercent(120000, 50000)).toBe(100);
  });
  it('is 75 when there are no metrics', () => {
    expect(DEFAULT_PROGRESS_PERCENT).toBe(75);
    expect(progressPercent(undefined)).toBe(75);
    expect(progressPercent(null, 50000)).toBe(75);
  });
  it('labels 100 as achieved', () => {
    expect(progressLabel(100)).toBe('Goal Achieved!');
    expect(progressLabel(99)).toBe('Progress to Goal');
  });
});

describe('goalBadge', () => {
  it.each([
    [150, 'Goal Reached', 'complete'],
    [100, 'Goal Reached', 'complete'],
    [99, 'Near Goal', 'warning'],
    [80, 'Near Goal', 'warning'],
    [79, 'Active', 'active'],
    [20, 'Active', 'active'],
    [19, 'Low Performance', 'low'],
    [0, 'Low Performance', 'low'],
  ])('%p%% → %p', (percent, label, tone) => expect(goalBadge(percent)).toEqual({ label, tone }));

  it('works from delivered and requested impressions', () => {
    expect(goalBadge(percentOfGoal(4000, 5000)).label).toBe('Near Goal');
    expect(goalBadge(percentOfGoal(3999, 5000)).label).toBe('Active');
    expect(percentOfGoal(100, 0)).toBe(0);
    expect(percentOfGoal(7500, 5000)).toBe(150);
  });
});

describe('agentActivityStatus', () => {
  it('is Active only with an active campaign', () => {
    expect(agentActivityStatus(1)).toBe('Active');
    expect(agentActivityStatus(0)).toBe('Inactive');
  });
});

describe('admin campaign badges', () => {
  it('judge only campaigns that deliver, and say statuses in words', () => {
    for (const status of ['draft', 'pending_payment', 'paid', 'launching', 'launch_failed', 'canceled']) {
      expect(campaignGoalBadge({ status, impressionsDelivered: 0, impressionsRequested: 15000 })).toBeNull();
    }
    expect(campaignGoalBadge({ status: 'active', impressionsDelivered: 100, impressionsRequested: 15000 })).toEqual({ label: 'Low Performance', tone: 'low' });
    expect(campaignGoalBadge({ status: 'completed', impressionsDelivered: 15000, impressionsRequested: 15000 })).toEqual({ label: 'Goal Reached', tone: 'complete' });
    expect(campaignStatusLabel('pending_payment')).toBe('Awaiting payment');
    expect(campaignStatusLabel('launch_failed')).toBe('Launch failed');
    expect(campaignStatusLabel('some_new_status')).toBe('Some new status');
  });
});
