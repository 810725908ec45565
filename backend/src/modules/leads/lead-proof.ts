import crypto from 'node:crypto';
import type { LeadChallenge } from '@app/contracts';

/**
 * Difficulty of the proof of work asked of a page while its listing is guarded: leading zero bits of SHA-256, so
 * 2^12 tries on average. The form's own script (frontend-host/src/listing-page/proof-of-work.ts, one SHA-256
 * compression per try) makes 75,000–120,000 tries a second in Chromium with its CPU throttled 4× (a mid-range
 * phone), on the shared 2-core build machine: 20 solves took 52 ms at the median and 188 ms at the 95th
 * percentile. 2^14 took 100 ms and 470 ms there, and over a second at the tail during a flood.
 * Every junk lead pays it; a buyer pays it once. What holds a flood's leads is the review, not this cost.
 */
export const LEAD_PROOF_DIFFICULTY = 12;
/** How long a challenge may be answered after it was issued. */
export const LEAD_PROOF_TTL_MS = 10 * 60 * 1000;

/** `${issuedAt base36}.${difficulty}.${nonce}.${signature}`: the nonce names the challenge (spent once). */
const TOKEN = /^([0-9a-z]{1,11})\.(\d{1,2})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export type ProofCheck = { result: 'ok'; nonce: string } | { result: 'invalid' };

/**
 * The hashcash challenges of the lead form (DESIGN §6): signed (HMAC-SHA256, a key of its own derived from the
 * server's secret), bound to the listing and the form (its idempotency key) and to a time window. That it is
 * answered once is the caller's business (the nonce, spent in PostgreSQL).
 */
export class LeadProofs {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = crypto.createHmac('sha256', secret).update('lead-proof/v1').digest();
  }

  private sign(mlsId: string, idempotencyKey: string, body: string): string {
    return crypto.createHmac('sha256', this.key).update(`${mlsId}\n${idempotencyKey}\n${body}`).digest('base64url');
  }

  issue(mlsId: string, idempotencyKey: string, now: number = Date.now(), difficulty: number = LEAD_PROOF_DIFFICULTY): LeadChallenge {
    const body = `${now.toString(36)}.${difficulty}.${crypto.randomBytes(16).toString('base64url')}`;
    return { token: `${body}.${this.sign(mlsId, idempotencyKey, body)}`, difficulty };
  }

  /** Whether `solution` answers a challenge issued for this listing and form within the window. */
  check(proof: { token: string; solution: string }, mlsId: string, idempotencyKey: string, now: number = Date.now()): ProofCheck {
    const m = TOKEN.exec(proof.token);
    if (!m) return { result: 'invalid' };
    const [, at, bits, nonce, signature] = m;
    const expected = Buffer.from(this.sign(mlsId, idempotencyKey, `${at}.${bits}.${nonce}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return { result: 'invalid' };
    const age = now - parseInt(at, 36);
    if (age < 0 || age > LEAD_PROOF_TTL_MS) return { result: 'invalid' };
    const digest = crypto.createHash('sha256').update(`${proof.token}:${proof.solution}`).digest();
    return leadingZeroBits(digest) >= Number(bits) ? { result: 'ok', nonce } : { result: 'invalid' };
  }
}

export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}
