import Keygrip from 'keygrip';
import { CookieKeys } from './cookie-keys';

describe('cookie keys', () => {
  it('signs exactly as keygrip does, so cookies signed by either verify with the other', () => {
    const keys = ['test-session-secret-that-is-long-enough-0123', 'an-older-secret'];
    const ours = new CookieKeys(keys);
    const theirs = new Keygrip(keys);
    for (const data of ['la.sid=abc', 'la.sid=' + 'x'.repeat(200), 'la.sid=ü/+=']) {
      expect(ours.sign(data)).toBe(theirs.sign(data));
      expect(ours.verify(data, theirs.sign(data))).toBe(true);
      expect(theirs.verify(data, ours.sign(data))).toBe(true);
    }
  });

  it('tells which key signed, and refuses a wrong, truncated or foreign signature', () => {
    const ours = new CookieKeys(['new-key', 'old-key']);
    const data = 'la.sid=abc';
    expect(ours.index(data, new Keygrip(['old-key']).sign(data))).toBe(1);
    expect(ours.index(data, ours.sign(data))).toBe(0);
    const good = ours.sign(data);
    expect(ours.verify(data, good.slice(0, -1))).toBe(false);
    expect(ours.verify(data, good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A'))).toBe(false);
    expect(ours.verify('la.sid=abd', good)).toBe(false);
    expect(ours.verify(data, new Keygrip(['someone-else']).sign(data))).toBe(false);
    expect(ours.verify(data, '')).toBe(false);
  });
});

describe('cookie keys: remembered signatures', () => {
  it("computes a session cookie's signature once for all its requests, and still refuses a wrong one", () => {
    const ours = new CookieKeys(['new-key', 'old-key']);
    const sign = jest.spyOn(ours, 'sign');
    const data = 'la.sid=5f0c6a8e-93b1-4c1e-9d55-0f6f7c4b2a10';
    const good = new Keygrip(['new-key']).sign(data);
    for (let i = 0; i < 5; i++) expect(ours.index(data, good)).toBe(0);
    expect(sign).toHaveBeenCalledTimes(1);
    // A remembered value is still checked against what is presented, every time.
    expect(ours.verify(data, good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A'))).toBe(false);
    expect(ours.verify(data, new Keygrip(['someone-else']).sign(data))).toBe(false);
    // The older key's signature is found too, and remembered as well.
    const old = new Keygrip(['old-key']).sign(data);
    expect(ours.index(data, old)).toBe(1);
    expect(ours.index(data, old)).toBe(1);
    expect(sign).toHaveBeenCalledTimes(2);
  });

  it('does not remember signatures of long values (no memory for arbitrary cookies)', () => {
    const ours = new CookieKeys(['k']);
    const sign = jest.spyOn(ours, 'sign');
    const data = 'la.other=' + 'x'.repeat(300);
    const good = new Keygrip(['k']).sign(data);
    expect(ours.verify(data, good)).toBe(true);
    expect(ours.verify(data, good)).toBe(true);
    expect(sign).toHaveBeenCalledTimes(2);
  });
});
