import crypto from 'node:crypto';
import { LEAD_MIN_FILL_MS, LEAD_TOKEN_MAX_AGE_MS } from '@app/contracts';

/**
 * The lead form's time trap: the page carries a token with the time it was rendered, signed (HMAC-SHA256)
 * for that listing, so a program can neither make one up nor move its time. `<renderedAt base36>.<signature>`.
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
    return `${now.toString(36)}.${this.sign(mlsId, now)}`;
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
