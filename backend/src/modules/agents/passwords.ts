import crypto from 'node:crypto';
import * as argon2 from 'argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

/** DESIGN §3: argon2id, with the library's defaults for cost (64 MiB, 3 passes, 4 lanes). */
const HASH_OPTIONS = { type: argon2.argon2id } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, HASH_OPTIONS);
}

let dummy: Promise<string> | undefined;

/**
 * A hash of a random password nobody knows, made with the same options as real ones. Verifying
 * against it for an unknown email costs the same as for a real account, so response times do not
 * tell which emails have accounts.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= argon2.hash(crypto.randomBytes(32).toString('base64url'), HASH_OPTIONS);
  return dummy;
}

/** False for a wrong password and for a stored value that is not an argon2 hash at all. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let common: Set<string> | undefined;

/**
 * True for a password on zxcvbn-ts's list of the most common passwords (from breach corpora, about
 * 49,000 entries), compared without letter case: "Password1" is as guessable as "password1".
 * The spec's 6-character minimum still applies first (contracts).
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}
