import crypto from 'node:crypto';
import { LEAD_MIN_FILL_MS, LEAD_TOKEN_MAX_AGE_MS } from '@app/contracts';

/** A token's time is the render time cut to a tenth of a second (never later than the render). */
export const FORM_TOKEN_STEP_MS = 100;

/** The start of the step `now` falls in: the time a token issued at `now` carries. */
export const formTokenStep = (now: number) => now - (now % FORM_TOKEN_STEP_MS);

/**
 * The lead form's time trap: the page carries a token with the time it was rendered, signed (HMAC-SHA256)
 * for that listing, so a program can neither make one up nor move its time. `<renderedAt base36>.<signature>`.
 * The time is cut to FORM_TOKEN_STEP_MS, so every page of a listing rendered within one step carries the same
 * token and a busy page signs once a step, not once a view. Cut down, never up: a token is never younger than
 * its page, so a buyer's send after 3 s on the page is never refused as too fast.
 */
export class LeadFormTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    // A key of its own, derived from the server's secret: a form token can never pass for a session cookie.
    this.key = crypto.createHmac('sha256', secret).update('lead-form-token/v1').digest();
  }

  private sign(mlsId: string, renderedAt: number): string {
    return crypto.createHmac('sha256', this.key).update(`${mlsId}\n${renderedAt}`).digest('base64url');
  }

  issue(mlsId: string, now: number = Date.now()): string {
    const at = formTokenStep(now);
    return `${at.toString(36)}.${this.sign(mlsId, at)}`;
  }

  /** 'ok', 'invalid' (forged, for another listing, or older than 24 h), or how many ms are left before 3 s have passed. */
  check(token: string, mlsId: string, now: number = Date.now()): { result: 'ok' } | { result: 'invalid' } | { result: 'too_fast'; waitMs: number } {
    const m = /^([0-9a-z]{1,11})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return { result: 'invalid' };
    const renderedAt = parseInt(m[1], 36);
    const expected = Buffer.from(this.sign(mlsId, renderedAt));
    const given = Buffer.from(m[2]);
    if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return { result: 'invalid' };
    const age = now - renderedAt;
    if (age > LEAD_TOKEN_MAX_AGE_MS) return { result: 'invalid' };
    if (age < LEAD_MIN_FILL_MS) return { result: 'too_fast', waitMs: LEAD_MIN_FILL_MS - age };
    return { result: 'ok' };
  }
}
