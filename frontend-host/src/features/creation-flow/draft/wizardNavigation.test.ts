/// <reference types="jest" />
import { guardedStep, parseStep } from './wizardNavigation';
import { aListing, anAgent } from './testing';

describe('parseStep (the step query parameter)', () => {
  it.each([
    ['1', 1],
    ['4', 4],
    ['6', 6],
    [' 3 ', 3],
  ])('reads %p as step %p', (raw, step) => {
    expect(parseStep(raw)).toBe(step);
  });

  it('clamps numbers to 1–6', () => {
    expect(parseStep('0')).toBe(1);
    expect(parseStep('7')).toBe(6);
    expect(parseStep('999')).toBe(6);
  });

  it.each([null, '', 'two', '-2', '2.5', '1e1'])('makes anything unreadable (%p) step 1', (raw) => {
    expect(parseStep(raw)).toBe(1);
  });
});

describe('guardedStep (spec 000 §2 guards)', () => {
  const agent = anAgent();
  const listing = aListing();

  it('keeps step 1 whatever is stored', () => {
    expect(guardedStep(1, { agent: null, listing: null })).toBe(1);
  });

  it('sends step 2 or higher back to step 1 without an agent', () => {
    for (const step of [2, 3, 4, 5, 6] as const) {
      expect(guardedStep(step, { agent: null, listing: null })).toBe(1);
      // A listing without its agent does not count either.
      expect(guardedStep(step, { agent: null, listing })).toBe(1);
    }
  });

  it('sends step 3 or higher back to step 2 with an agent but no listing', () => {
    expect(guardedStep(2, { agent, listing: null })).toBe(2);
    for (const step of [3, 4, 5, 6] as const) expect(guardedStep(step, { agent, listing: null })).toBe(2);
  });

  it('lets every step through with an agent and a listing', () => {
    for (const step of [1, 2, 3, 4, 5, 6] as const) expect(guardedStep(step, { agent, listing })).toBe(step);
  });
});
