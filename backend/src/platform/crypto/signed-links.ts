import crypto from 'node:crypto';
import type { Config } from '../config';

/**
 * Signed one-tap links for emails (autopilot's Launch now, Edit, Skip…): the token carries what it is for
 * (purpose, subject, action) and until when, signed with HMAC-SHA256 under a key derived from the session
 * secret. Nothing is stored to make one, so an email can be built at send time without keeping a bearer
 * token in the database; using one once is recorded by the module that acts on it.
 */
export interface LinkClaims {
  /** Which module's links these are ('autopilot'). */
  purpose: string;
  /** What the link acts on (an autopilot run's id). */
  subject: string;
  action: string;
  /** Unix seconds: the link is refused after this. */
  expiresAt: number;
}

function keyOf(config: Pick<Config, 'SESSION_SECRET' | 'ENCRYPTION_KEY'>): Buffer {
  const secret = config.SESSION_SECRET ?? config.ENCRYPTION_KEY;
  // Every process must sign alike: without a configured secret, links could not be checked by another process.
  if (!secret) throw new Error('signed links need SESSION_SECRET (or ENCRYPTION_KEY)');
  return crypto.createHmac('sha256', secret).update('signed-links/v1').digest();
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export function signLink(config: Pick<Config, 'SESSION_SECRET' | 'ENCRYPTION_KEY'>, claims: LinkClaims): string {
  const body = b64(JSON.stringify({ p: claims.purpose, s: claims.subject, a: claims.action, e: Math.floor(claims.expiresAt) }));
  const mac = crypto.createHmac('sha256', keyOf(config)).update(body).digest();
  // "~", not ".": a link's path has no dot, so it is a page route, never taken for a file.
  return `${body}~${b64(mac)}`;
}

export type LinkCheck = { ok: true; claims: LinkClaims } | { ok: false; reason: 'invalid' | 'expired' };

/** The token's claims if its signature holds, it is for `purpose`, and it has not expired. */
export function verifyLink(config: Pick<Config, 'SESSION_SECRET' | 'ENCRYPTION_KEY'>, token: string, purpose: string, now: Date = new Date()): LinkCheck {
  const m = /^([A-Za-z0-9_-]{1,400})~([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return { ok: false, reason: 'invalid' };
  const expected = crypto.createHmac('sha256', keyOf(config)).update(m[1]).digest();
  const given = Buffer.from(m[2], 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  let raw: { p?: unknown; s?: unknown; a?: unknown; e?: unknown };
  try {
    raw = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (raw.p !== purpose || typeof raw.s !== 'string' || typeof raw.a !== 'string' || typeof raw.e !== 'number') return { ok: false, reason: 'invalid' };
  if (now.getTime() / 1000 > raw.e) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { purpose: raw.p, subject: raw.s, action: raw.a, expiresAt: raw.e } };
}
