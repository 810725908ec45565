/**
 * Budget → impressions → reach → timeframe (spec 000 §9). Shared by the pricing step (display)
 * and the server (which recomputes everything from the budget and never trusts the browser).
 */

export const BUDGET_MIN = 99;
export const BUDGET_MAX = 999;
export const BUDGET_STEP = 50;
export const BUDGET_RECOMMENDED = 299;
/** Wizard draft defaults as the spec states them. Note impressionsForBudget(399) is 20000, not 25000. */
export const DRAFT_DEFAULT_PRICE = 399;
export const DRAFT_DEFAULT_IMPRESSIONS = 25000;

export const BASE_IMPRESSIONS = 5000;
export const REACH_MIN_RATIO = 0.6;
export const REACH_MAX_RATIO = 0.7;

export const BUDGET_GRID_MESSAGE = `Budget must be between $${BUDGET_MIN} and $${BUDGET_MAX} in steps of $${BUDGET_STEP}`;

/** Every budget the slider can produce: 99, 149, …, 949, 999 (19 values). */
export const BUDGET_GRID: readonly number[] = Array.from(
  { length: (BUDGET_MAX - BUDGET_MIN) / BUDGET_STEP + 1 },
  (_, i) => BUDGET_MIN + i * BUDGET_STEP,
);

/** True for a whole-dollar budget on the slider grid (99 + k·50, up to 999). */
export function isBudgetOnGrid(budget: unknown): budget is number {
  return (
    typeof budget === 'number' &&
    Number.isInteger(budget) &&
    budget >= BUDGET_MIN &&
    budget <= BUDGET_MAX &&
    (budget - BUDGET_MIN) % BUDGET_STEP === 0
  );
}

/** Nearest grid budget (for a slider or a typed value); clamps to 99…999. */
export function snapBudget(budget: number): number {
  if (!Number.isFinite(budget)) return BUDGET_MIN;
  const clamped = Math.min(BUDGET_MAX, Math.max(BUDGET_MIN, budget));
  return BUDGET_MIN + Math.round((clamped - BUDGET_MIN) / BUDGET_STEP) * BUDGET_STEP;
}

function assertFinite(value: number, what: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RangeError(`${what} must be a finite number`);
  }
}

/**
 * Impressions bought by a budget in dollars: up to 99 → 5000, otherwise
 * 5000 + (budget − 99) / 20 × 1000. Grid budgets always give whole numbers
 * (99 → 5000, 299 → 15000, 999 → 50000); off-grid budgets are rounded with Math.round.
 * Not clamped above 999: callers validate the budget first (see isBudgetOnGrid).
 */
export function impressionsForBudget(budget: number): number {
  assertFinite(budget, 'budget');
  if (budget <= BUDGET_MIN) return BASE_IMPRESSIONS;
  // (budget − 99) / 20 × 1000 === (budget − 99) × 50, computed without the division.
  return Math.round(BASE_IMPRESSIONS + (budget - BUDGET_MIN) * 50);
}

export interface ReachRange {
  min: number;
  max: number;
}

/** Estimated reach: 60% to 70% of impressions, each rounded to a whole person. */
export function reachRange(impressions: number): ReachRange {
  assertFinite(impressions, 'impressions');
  return {
    min: Math.round((impressions * 60) / 100),
    max: Math.round((impressions * 70) / 100),
  };
}

export type TimeframeLabel = '7-10 days' | '10-14 days' | '14-21 days' | '21-28 days';

export interface TimeframeDays {
  minDays: number;
  maxDays: number;
}

export interface TimeframeBucket extends TimeframeDays {
  /** Inclusive upper bound of impressions for this bucket (Infinity for the last one). */
  maxImpressions: number;
  label: TimeframeLabel;
}

export const TIMEFRAME_BUCKETS: readonly TimeframeBucket[] = [
  { maxImpressions: 7500, label: '7-10 days', minDays: 7, maxDays: 10 },
  { maxImpressions: 15000, label: '10-14 days', minDays: 10, maxDays: 14 },
  { maxImpressions: 25000, label: '14-21 days', minDays: 14, maxDays: 21 },
  { maxImpressions: Infinity, label: '21-28 days', minDays: 21, maxDays: 28 },
];

function bucketFor(impressions: number): TimeframeBucket {
  assertFinite(impressions, 'impressions');
  return TIMEFRAME_BUCKETS.find((b) => impressions <= b.maxImpressions)!;
}

/** "7-10 days" (≤ 7500), "10-14 days" (≤ 15000), "14-21 days" (≤ 25000), else "21-28 days". */
export function timeframeForImpressions(impressions: number): TimeframeLabel {
  return bucketFor(impressions).label;
}

/** The same buckets as numbers, e.g. 15000 → { minDays: 10, maxDays: 14 }. */
export function timeframeDaysForImpressions(impressions: number): TimeframeDays {
  const { minDays, maxDays } = bucketFor(impressions);
  return { minDays, maxDays };
}

const MONEY_STRING = /^\d+(?:\.\d{1,2})?$/;

/**
 * Dollars → integer cents without floating-point drift. Accepts a number (at most 2 decimals
 * after rounding) or the wire's decimal string ("399", "399.5", "399.50").
 * Throws RangeError for negative, non-finite or malformed values.
 */
export function budgetToCents(budget: number | string): number {
  if (typeof budget === 'string') {
    const s = budget.trim();
    if (!MONEY_STRING.test(s)) throw new RangeError(`not a dollar amount: "${budget}"`);
    const [whole, frac = ''] = s.split('.');
    return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  }
  assertFinite(budget, 'budget');
  if (budget < 0) throw new RangeError('budget must not be negative');
  return Math.round(budget * 100);
}

export interface BudgetEstimate {
  budget: number;
  amountCents: number;
  impressions: number;
  reach: ReachRange;
  timeframe: TimeframeLabel;
  days: TimeframeDays;
}

/** Everything the pricing step shows (and the server stores) for one budget. */
export function budgetEstimate(budget: number): BudgetEstimate {
  const impressions = impressionsForBudget(budget);
  return {
    budget,
    amountCents: budgetToCents(budget),
    impressions,
    reach: reachRange(impressions),
    timeframe: timeframeForImpressions(impressions),
    days: timeframeDaysForImpressions(impressions),
  };
}
