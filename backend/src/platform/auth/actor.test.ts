import crypto from 'node:crypto';
import type { Context } from 'koa';
import { actorOf, hashOf } from './actor';

const ctxWith = (session: Record<string, unknown> | null) => ({ session }) as unknown as Context;
const sha256 = (v: string) => crypto.createHash('sha256').update(v).digest('hex');

describe('actorOf', () => {
  it("names the browser by its key's SHA-256, the same on every request, and each browser apart", () => {
    for (let i = 0; i < 3; i++) {
      expect(actorOf(ctxWith({ browserKey: 'key-a', wizardAgentIds: [4], agentId: 9 }))).toEqual({
        loggedInAgentId: 9,
        wizardAgentIds: [4],
        browserHash: sha256('key-a'),
        impersonating: false,
      });
      expect(actorOf(ctxWith({ browserKey: 'key-b' })).browserHash).toBe(sha256('key-b'));
    }
    expect(actorOf(ctxWith(null))).toEqual({ loggedInAgentId: null, wizardAgentIds: [], browserHash: null, impersonating: false });
  });

  it('hashes as SHA-256 hex (what the tables hold)', () => {
    expect(hashOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashOf('ü')).toBe(sha256('ü'));
  });
});
