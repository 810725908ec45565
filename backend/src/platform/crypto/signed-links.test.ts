import { signLink, verifyLink } from './signed-links';

const config = { SESSION_SECRET: 'a-session-secret-that-is-long-enough-000', ENCRYPTION_KEY: undefined };
const claims = { purpose: 'autopilot', subject: '42', action: 'skip', expiresAt: Date.parse('2026-12-01T00:00:00Z') / 1000 };

describe('signed links', () => {
  it('verifies its own tokens until they expire', () => {
    const token = signLink(config, claims);
    expect(token).toMatch(/^[A-Za-z0-9_-]+~[A-Za-z0-9_-]{43}$/);
    expect(verifyLink(config, token, 'autopilot', new Date('2026-11-30T00:00:00Z'))).toEqual({ ok: true, claims });
    expect(verifyLink(config, token, 'autopilot', new Date('2026-12-01T00:00:01Z'))).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a changed claim, another key, another purpose, and garbage', () => {
    const token = signLink(config, claims);
    const [body, mac] = token.split('~');
    const forged = Buffer.from(JSON.stringify({ p: 'autopilot', s: '43', a: 'skip', e: claims.expiresAt })).toString('base64url');
    const at = new Date('2026-11-30T00:00:00Z');
    expect(verifyLink(config, `${forged}~${mac}`, 'autopilot', at)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyLink({ SESSION_SECRET: 'another-secret-that-is-long-enough-0000', ENCRYPTION_KEY: undefined }, token, 'autopilot', at)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyLink(config, token, 'reports', at)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyLink(config, `${body}~${'A'.repeat(43)}`, 'autopilot', at)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyLink(config, 'not-a-token', 'autopilot', at)).toEqual({ ok: false, reason: 'invalid' });
    expect(() => signLink({ SESSION_SECRET: undefined, ENCRYPTION_KEY: undefined }, claims)).toThrow(/SESSION_SECRET/);
  });
});
