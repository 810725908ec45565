import {
  BUDGET_GRID,
  BUDGET_GRID_MESSAGE,
  BUDGET_MAX,
  BUDGET_MIN,
  BUDGET_RECOMMENDED,
  BUDGET_STEP,
  DRAFT_DEFAULT_IMPRESSIONS,
  DRAFT_DEFAULT_PRICE,
  budgetEstimate,
  budgetToCents,
  impressionsForBudget,
  isBudgetOnGrid,
  reachRange,
  snapBudget,
  timeframeDaysForImpressions,
  timeframeForImpressions,
} from './pricing.js';

describe('budget constants', () => {
  it('pins the slider and draft numbers from the spec', () => {
    expect([BUDGET_MIN, BUDGET_MAX, BUDGET_STEP, BUDGET_RECOMMENDED]).toEqual([99, 999, 50, 299]);
    expect([DRAFT_DEFAULT_PRICE, DRAFT_DEFAULT_IMPRESSIONS]).toEqual([399, 25000]);
    expect(BUDGET_GRID_MESSAGE).toBe('Budget must be between $99 and $999 in steps of $50');
  });

  it('has a 19-value grid from 99 to 999', () => {
    expect(BUDGET_GRID).toHaveLength(19);
    expect(BUDGET_GRID[0]).toBe(99);
    expect(BUDGET_GRID[1]).toBe(149);
    expect(BUDGET_GRID[BUDGET_GRID.length - 1]).toBe(999);
  });
});

describe('isBudgetOnGrid', () => {
  it.each([99, 149, 299, 399, 949, 999])('accepts %p', (b) => expect(isBudgetOnGrid(b)).toBe(true));
  it.each([49, 98, 100, 150, 300, 1049, 1000, 299.5, NaN, Infinity, '299', null])('rejects %p', (b) =>
    expect(isBudgetOnGrid(b)).toBe(false),
  );
});

describe('impressionsForBudget', () => {
  it.each([
    [99, 5000],
    [149, 7500],
    [199, 10000],
    [299, 15000],
    [399, 20000],
    [499, 25000],
    [999, 50000],
  ])('%p → %p', (budget, impressions) => expect(impressionsForBudget(budget)).toBe(impressions));

  it('gives 5000 to any budget up to 99', () => {
    expect(impressionsForBudget(0)).toBe(5000);
    expect(impressionsForBudget(50)).toBe(5000);
  });

  it('rounds off-grid budgets to a whole impression', () => {
    expect(impressionsForBudget(100)).toBe(5050);
    expect(impressionsForBudget(100.01)).toBe(5051); // 5050.5 → 5051
    expect(impressionsForBudget(100.004)).toBe(5050); // 5050.2 → 5050
  });

  it('rejects non-numbers', () => {
    expect(() => impressionsForBudget(NaN)).toThrow(RangeError);
  });
});

describe('reachRange', () => {
  it('is 60% to 70% of impressions', () => {
    expect(reachRange(15000)).toEqual({ min: 9000, max: 10500 });
    expect(reachRange(50000)).toEqual({ min: 30000, max: 35000 });
  });
  it('rounds to whole people', () => {
    expect(reachRange(5051)).toEqual({ min: 3031, max: 3536 }); // 3030.6, 3535.7
  });
});

describe('timeframe', () => {
  it.each([
    [5000, '7-10 days', 7, 10],
    [7500, '7-10 days', 7, 10],
    [7501, '10-14 days', 10, 14],
    [15000, '10-14 days', 10, 14],
    [15001, '14-21 days', 14, 21],
    [25000, '14-21 days', 14, 21],
    [25001, '21-28 days', 21, 28],
    [50000, '21-28 days', 21, 28],
  ])('%p impressions → %p', (n, label, minDays, maxDays) => {
    expect(timeframeForImpressions(n)).toBe(label);
    expect(timeframeDaysForImpressions(n)).toEqual({ minDays, maxDays });
  });
});

describe('budgetToCents', () => {
  it('converts numbers and wire strings without float drift', () => {
    expect(budgetToCents(399)).toBe(39900);
    expect(budgetToCents(0.29)).toBe(29);
    expect(budgetToCents('399')).toBe(39900);
    expect(budgetToCents('399.5')).toBe(39950);
    expect(budgetToCents(' 19.99 ')).toBe(1999);
  });
  it.each(['', 'abc', '1.999', '-5', '1e3', '$399'])('rejects the string %p', (s) =>
    expect(() => budgetToCents(s)).toThrow(RangeError),
  );
  it('rejects negative and non-finite numbers', () => {
    expect(() => budgetToCents(-1)).toThrow(RangeError);
    expect(() => budgetToCents(Infinity)).toThrow(RangeError);
  });
});

describe('snapBudget', () => {
  it('snaps to the nearest grid value inside 99…999', () => {
    expect(snapBudget(300)).toBe(299);
    expect(snapBudget(324)).toBe(349); // exactly halfway between 299 and 349 rounds up
    expect(snapBudget(323)).toBe(299);
    expect(snapBudget(10)).toBe(99);
    expect(snapBudget(5000)).toBe(999);
    expect(snapBudget(NaN)).toBe(99);
  });
});

describe('budgetEstimate', () => {
  it('bundles everything the pricing step shows for the recommended budget', () => {
    expect(budgetEstimate(299)).toEqual({
      budget: 299,
      amountCents: 29900,
      impressions: 15000,
      reach: { min: 9000, max: 10500 },
      timeframe: '10-14 days',
      days: { minDays: 10, maxDays: 14 },
    });
  });
});
