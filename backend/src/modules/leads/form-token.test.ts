import { LEAD_MIN_FILL_MS, LEAD_TOKEN_MAX_AGE_MS } from '@app/contracts';
import { FORM_TOKEN_STEP_MS, LeadFormTokens } from './form-token';

const tokens = new LeadFormTokens('a-server-secret-for-form-token-tests-0123456789');
const timeOf = (token: string) => parseInt(token.split('.')[0], 36);

describe('LeadFormTokens', () => {
  it('carries the render time cut down to the step: never later than the render, at most one step earlier', () => {
    for (const now of [1_795_000_000_000, 1_795_000_000_099, 1_795_000_000_150, 1_795_000_012_345]) {
      const at = timeOf(tokens.issue('FL1', now));
      expect(at).toBeLessThanOrEqual(now);
      expect(now - at).toBeLessThan(FORM_TOKEN_STEP_MS);
      expect(at % FORM_TOKEN_STEP_MS).toBe(0);
    }
    // Within one step, one listing's token is the same; another listing's differs.
    expect(tokens.issue('FL1', 1_795_000_000_101)).toBe(tokens.issue('FL1', 1_795_000_000_199));
    expect(tokens.issue('FL1', 1_795_000_000_101)).not.toBe(tokens.issue('FL2', 1_795_000_000_101));
  });

  it('a send 3 s after the render is never too fast; sooner it is, with the wait left', () => {
    const rendered = 1_795_000_000_199;
    const token = tokens.issue('FL1', rendered);
    expect(tokens.check(token, 'FL1', rendered + LEAD_MIN_FILL_MS)).toEqual({ result: 'ok' });
    expect(tokens.check(token, 'FL1', rendered + 1000)).toEqual({ result: 'too_fast', waitMs: LEAD_MIN_FILL_MS - 1099 });
  });

  it('refuses a token for another listing, a changed time, another secret, and one older than 24 h', () => {
    const now = 1_795_000_000_000;
    const token = tokens.issue('FL1', now);
    const later = now + LEAD_MIN_FILL_MS;
    expect(tokens.check(token, 'FL2', later)).toEqual({ result: 'invalid' });
    const [, sig] = token.split('.');
    expect(tokens.check(`${(now - 60_000).toString(36)}.${sig}`, 'FL1', later)).toEqual({ result: 'invalid' });
    expect(new LeadFormTokens('another-secret-0123456789abcdef0123').check(token, 'FL1', later)).toEqual({ result: 'invalid' });
    expect(tokens.check(token, 'FL1', now + LEAD_TOKEN_MAX_AGE_MS + 1)).toEqual({ result: 'invalid' });
    expect(tokens.check('not-a-token', 'FL1', later)).toEqual({ result: 'invalid' });
  });
});
