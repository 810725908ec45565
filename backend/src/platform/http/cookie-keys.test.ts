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
