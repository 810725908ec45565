/// <reference types="jest" />
jest.mock('uplot', () => ({}));
jest.mock('uplot/dist/uPlot.min.css', () => ({}), { virtual: true });
import { dayRange } from './DeliveryChart';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

describe('daily chart axis', () => {
  it('one day of delivery is a point on a week around it, not years', () => {
    const [min, max] = dayRange([day('2026-11-26')]);
    expect(new Date(min * 1000).toISOString().slice(0, 10)).toBe('2026-11-25');
    expect(new Date(max * 1000).toISOString().slice(0, 10)).toBe('2026-12-03');
  });

  it('several days: a day of margin either side', () => {
    const [min, max] = dayRange([day('2026-11-01'), day('2026-11-20')]);
    expect(new Date(min * 1000).toISOString().slice(0, 10)).toBe('2026-10-31');
    expect(new Date(max * 1000).toISOString().slice(0, 10)).toBe('2026-11-21');
  });
});
