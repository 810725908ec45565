import { createHash } from 'node:crypto';
import { sha256Hex, solveChallenge } from './proof-of-work';

const nodeSha = (text: string) => createHash('sha256').update(text).digest();
const zeroBits = (d: Buffer) => {
  let bits = 0;
  for (const byte of d) {
    if (byte === 0) bits += 8;
    else return bits + Math.clz32(byte) - 24;
  }
  return bits;
};

describe("the lead form's proof of work", () => {
  it('hashes as SHA-256 does, at every length around the block edges', () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 200]) {
      const text = 'a1:'.repeat(70).slice(0, length);
      expect(sha256Hex(text)).toBe(nodeSha(text).toString('hex'));
    }
  });

  it("finds a solution the server accepts: SHA-256 of token:solution starts with the challenge's zero bits", async () => {
    // Tokens of the server's length (about 78 characters) and a few others, so the tail falls in one or two blocks.
    for (const token of ['mht0x2ab.12.AAAAAAAAAAAAAAAAAAAAAA.' + 'B'.repeat(43), 'short', 'x'.repeat(60), 'y'.repeat(120)]) {
      const solution = await solveChallenge({ token, difficulty: 12 });
      expect(solution).toMatch(/^[0-9a-z]{1,16}$/);
      expect(zeroBits(nodeSha(`${token}:${solution}`))).toBeGreaterThanOrEqual(12);
    }
  });

  it('stops when told to', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(solveChallenge({ token: 'never', difficulty: 32 }, stop.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
