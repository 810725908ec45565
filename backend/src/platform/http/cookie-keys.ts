import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** keygrip's digest: HMAC-SHA1, base64 made URL-safe without padding. */
const URL_SAFE: Record<string, string> = { '/': '_', '+': '-', '=': '' };

/** How many cookie values' signatures a process remembers, and the longest value it remembers one for. */
const REMEMBERED = 10_000;
const REMEMBERED_MAX_LENGTH = 256;

/**
 * Signs and checks cookie signatures exactly as keygrip does (the `cookies` package asks for `sign`,
 * `verify` and `index`), so cookies signed before still verify. keygrip compares signatures through
 * tsscmp, which draws fresh random bytes and computes two more HMACs for every cookie read: a tenth of an
 * agent read's CPU under load. Node's `crypto.timingSafeEqual` is the same constant-time comparison, natively.
 *
 * The expected signature of a value is a pure function of the value and the key, so it is remembered (per key,
 * the last 10,000 values): a browser's every request presents the same session cookie, and the HMAC, a sixth of
 * a cached read's CPU, is then computed once per value instead of once per request. What the browser presents
 * is still compared with the expected signature in constant time; only the HMAC is skipped, never the check.
 * Nothing can go stale: the keys are fixed for the life of the process.
 */
export class CookieKeys {
  private readonly expected: LRUCache<string, Buffer>[];

  constructor(private readonly keys: readonly string[]) {
    if (!keys.length) throw new Error('CookieKeys needs at least one key');
    this.expected = keys.map(() => new LRUCache<string, Buffer>({ max: REMEMBERED }));
  }

  sign(data: string, key: string = this.keys[0]): string {
    return crypto.createHmac('sha1', key).update(data).digest('base64').replace(/[/+=]/g, (c) => URL_SAFE[c]);
  }

  verify(data: string, digest: string): boolean {
    return this.index(data, digest) > -1;
  }

  /** Which key signed `data` to `digest`, or -1. */
  index(data: string, digest: string): number {
    const given = Buffer.from(String(digest));
    for (let i = 0; i < this.keys.length; i++) {
      const expected = this.expectedSignature(i, data);
      if (expected.length === given.length && crypto.timingSafeEqual(expected, given)) return i;
    }
    return -1;
  }

  /** The signature key `i` gives `data`, as bytes: remembered for short values (session ids), computed for others. */
  private expectedSignature(i: number, data: string): Buffer {
    if (data.length > REMEMBERED_MAX_LENGTH) return Buffer.from(this.sign(data, this.keys[i]));
    let signature = this.expected[i].get(data);
    if (!signature) {
      signature = Buffer.from(this.sign(data, this.keys[i]));
      this.expected[i].set(data, signature);
    }
    return signature;
  }
}
