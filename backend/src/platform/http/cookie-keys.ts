import crypto from 'node:crypto';

/** keygrip's digest: HMAC-SHA1, base64 made URL-safe without padding. */
const URL_SAFE: Record<string, string> = { '/': '_', '+': '-', '=': '' };

/**
 * Signs and checks cookie signatures exactly as keygrip does (the `cookies` package asks for `sign`,
 * `verify` and `index`), so cookies signed before still verify. keygrip compares signatures through
 * tsscmp, which draws fresh random bytes and computes two more HMACs for every cookie read: a tenth of an
 * agent read's CPU under load. Node's `crypto.timingSafeEqual` is the same constant-time comparison, natively.
 */
export class CookieKeys {
  constructor(private readonly keys: readonly string[]) {
    if (!keys.length) throw new Error('CookieKeys needs at least one key');
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
      const expected = Buffer.from(this.sign(data, this.keys[i]));
      if (expected.length === given.length && crypto.timingSafeEqual(expected, given)) return i;
    }
    return -1;
  }
}
