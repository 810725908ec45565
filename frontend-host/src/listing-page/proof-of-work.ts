/**
 * The lead form's answer to a guarded listing's challenge (hashcash, contracts `leadChallengeSchema`): the first
 * `solution` (a counter in base 36) such that SHA-256 of `${token}:${solution}` starts with `difficulty` zero bits.
 *
 * A small SHA-256 of its own rather than Web Crypto: `crypto.subtle` is async (a promise per try) and missing on
 * pages served over plain http. The token's full 64-byte blocks are hashed once (the midstate); each try then
 * hashes only the last block or two. It yields to the page between slices, so typing and taps stay smooth.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const w = new Uint32Array(64);

/** One SHA-256 compression of the 64 bytes at `bytes[offset…]` into `state`. */
function compress(state: Uint32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15];
    const b = w[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6], h = state[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}

/** Leading zero bits of a digest given as its eight words. */
function zeroBits(state: Uint32Array): number {
  let bits = 0;
  for (let i = 0; i < 8; i++) {
    if (state[i] === 0) {
      bits += 32;
      continue;
    }
    return bits + Math.clz32(state[i]);
  }
  return bits;
}

const encoder = new TextEncoder();

/** SHA-256 of a string, as hex (for tests: the same code path as the solver). */
export function sha256Hex(text: string): string {
  const state = digestOf(encoder.encode(text));
  return Array.from(state, (x) => (x >>> 0).toString(16).padStart(8, '0')).join('');
}

function digestOf(message: Uint8Array): Uint32Array {
  const state = Uint32Array.from(H0);
  const full = message.length - (message.length % 64);
  for (let off = 0; off < full; off += 64) compress(state, message, off);
  const tail = new Uint8Array(message.length % 64 < 56 ? 64 : 128);
  tail.set(message.subarray(full));
  finish(state, tail, message.length - full, message.length);
  return state;
}

/** Pads the tail (`used` bytes of it are message) with the message's bit length, and compresses it. */
function finish(state: Uint32Array, tail: Uint8Array, used: number, totalLength: number): void {
  tail.fill(0, used);
  tail[used] = 0x80;
  const bits = totalLength * 8;
  const end = tail.length;
  tail[end - 4] = (bits >>> 24) & 0xff;
  tail[end - 3] = (bits >>> 16) & 0xff;
  tail[end - 2] = (bits >>> 8) & 0xff;
  tail[end - 1] = bits & 0xff;
  tail[end - 5] = Math.floor(bits / 2 ** 32) & 0xff;
  for (let off = 0; off < end; off += 64) compress(state, tail, off);
}

/** Waits for the browser to run other work (input, paint) before the next slice. */
const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Tries per slice: a few milliseconds on a phone. */
const SLICE = 4096;
/** Solutions are counters of this many base-36 digits, changed in place in the block: no string per try. */
const DIGITS = 8;
const ALPHABET = Uint8Array.from('0123456789abcdefghijklmnopqrstuvwxyz', (c) => c.charCodeAt(0));

/** Finds the solution; `signal` stops it (the form was closed). */
export async function solveChallenge(challenge: { token: string; difficulty: number }, signal?: AbortSignal): Promise<string> {
  const prefix = encoder.encode(`${challenge.token}:`);
  const full = prefix.length - (prefix.length % 64);
  const mid = Uint32Array.from(H0);
  for (let off = 0; off < full; off += 64) compress(mid, prefix, off);
  // The last block or two: the rest of the token, the counter, then the padding and the length (fixed: the
  // counter's length never changes), written once.
  const rest = prefix.subarray(full);
  const used = rest.length + DIGITS;
  const block = new Uint8Array(used < 56 ? 64 : 128);
  block.set(rest);
  block.fill(ALPHABET[0], rest.length, used);
  finish(new Uint32Array(8), block, used, prefix.length + DIGITS);
  const digits = new Uint8Array(DIGITS);
  const state = new Uint32Array(8);
  for (;;) {
    for (let tries = 0; tries < SLICE; tries++) {
      state.set(mid);
      for (let off = 0; off < block.length; off += 64) compress(state, block, off);
      if (zeroBits(state) >= challenge.difficulty) return String.fromCharCode(...Array.from(digits, (d) => ALPHABET[d]));
      // The next counter value: the last digit moves, and carries to the ones before it now and then.
      let j = DIGITS - 1;
      while (j > 0 && digits[j] === 35) {
        digits[j] = 0;
        block[rest.length + j] = ALPHABET[0];
        j -= 1;
      }
      digits[j] += 1;
      block[rest.length + j] = ALPHABET[digits[j]];
    }
    if (signal?.aborted) throw new DOMException('The proof of work was stopped', 'AbortError');
    await yieldToPage();
  }
}
