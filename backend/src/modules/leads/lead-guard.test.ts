import { contentHashOf, holdReasonsOf, messageKeyOf, networkOf } from './lead-guard';
import { LeadProofs, leadingZeroBits } from './lead-proof';
import crypto from 'node:crypto';

describe('networkOf', () => {
  it('counts IPv4 by /24 and IPv6 by /64; an IPv4-mapped address as IPv4', () => {
    expect(networkOf('198.51.100.7')).toBe('198.51.100.0/24');
    expect(networkOf('198.51.100.250')).toBe(networkOf('198.51.100.1'));
    expect(networkOf('198.51.101.1')).not.toBe(networkOf('198.51.100.1'));
    expect(networkOf('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
    expect(networkOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(networkOf('2001:db8:1:2::1'));
    expect(networkOf('2001:db8:1:3::1')).not.toBe(networkOf('2001:db8:1:2::1'));
    expect(networkOf('not an address')).toBe('raw:not an address');
  });
});

describe('what makes a lead a repeat', () => {
  it('the same email (any case), name and message (any case and spacing) is the same content', () => {
    const a = contentHashOf({ email: 'Ana@Example.com', name: 'Ana Diaz', message: 'Is it  still available?' });
    expect(contentHashOf({ email: 'ana@example.com ', name: 'Ana Diaz', message: 'is it still available? ' })).toEqual(a);
    expect(contentHashOf({ email: 'ana@example.com', name: 'Ana D.', message: 'Is it still available?' })).not.toEqual(a);
    expect(contentHashOf({ email: 'ana@example.com', name: 'Ana Diaz', message: 'Another question' })).not.toEqual(a);
  });
  it('counts a message as repeated only when it is long enough to be someone’s own words', () => {
    expect(messageKeyOf('Is it available?')).toBeNull();
    expect(messageKeyOf('')).toBeNull();
    expect(messageKeyOf('Buy cheap watches at example.com today!!')).toBe(messageKeyOf('buy cheap   watches at EXAMPLE.com today!!'));
  });
});

describe('holdReasonsOf (a guarded listing)', () => {
  it('holds a lead over the address or network count, a repeat, or one without a proof; delivers the rest', () => {
    expect(holdReasonsOf({ addressLeads: 1, networkLeads: 1, repeats: false, proofOk: true })).toEqual([]);
    expect(holdReasonsOf({ addressLeads: 4, networkLeads: 11, repeats: true, proofOk: false })).toEqual(['address', 'network', 'content', 'proof']);
    expect(holdReasonsOf({ addressLeads: 3, networkLeads: 10, repeats: false, proofOk: false })).toEqual(['proof']);
  });
});

describe('LeadProofs (hashcash)', () => {
  const proofs = new LeadProofs('a-server-secret-for-proof-tests-0123456789');
  const solve = (token: string, difficulty: number) => {
    for (let i = 0; ; i++) if (leadingZeroBits(crypto.createHash('sha256').update(`${token}:${i.toString(36)}`).digest()) >= difficulty) return i.toString(36);
  };
  const now = 1_795_000_000_000;

  it('accepts a solution to its own challenge, for that listing and form, within ten minutes', () => {
    const { token, difficulty } = proofs.issue('FL1', 'form-key-0000000001', now, 8);
    const solution = solve(token, difficulty);
    expect(proofs.check({ token, solution }, 'FL1', 'form-key-0000000001', now + 60_000)).toEqual({ result: 'ok', nonce: expect.any(String) });
    for (const [mlsId, key, at] of [
      ['FL2', 'form-key-0000000001', now],
      ['FL1', 'form-key-0000000002', now],
      ['FL1', 'form-key-0000000001', now + 11 * 60_000],
      ['FL1', 'form-key-0000000001', now - 1],
    ] as const) {
      expect(proofs.check({ token, solution }, mlsId, key, at)).toEqual({ result: 'invalid' });
    }
  });

  it('refuses a wrong solution, a changed difficulty and a token signed with another secret', () => {
    const { token } = proofs.issue('FL1', 'form-key-0000000001', now, 16);
    let wrong = 0;
    while (leadingZeroBits(crypto.createHash('sha256').update(`${token}:${wrong.toString(36)}`).digest()) >= 16) wrong += 1;
    expect(proofs.check({ token, solution: wrong.toString(36) }, 'FL1', 'form-key-0000000001', now)).toEqual({ result: 'invalid' });
    expect(proofs.check({ token, solution: solve(token, 16) }, 'FL1', 'form-key-0000000001', now).result).toBe('ok');
    const easier = token.replace(/^([0-9a-z]+)\.16\./, '$1.1.');
    expect(proofs.check({ token: easier, solution: '0' }, 'FL1', 'form-key-0000000001', now)).toEqual({ result: 'invalid' });
    const foreign = new LeadProofs('another-secret-another-secret-0123456789').issue('FL1', 'form-key-0000000001', now, 4);
    expect(proofs.check({ token: foreign.token, solution: solve(foreign.token, 4) }, 'FL1', 'form-key-0000000001', now)).toEqual({ result: 'invalid' });
  });

  it('counts leading zero bits', () => {
    expect(leadingZeroBits(Uint8Array.from([0, 0, 0x0f, 0xff]))).toBe(20);
    expect(leadingZeroBits(Uint8Array.from([0x80]))).toBe(0);
    expect(leadingZeroBits(Uint8Array.from([0, 1]))).toBe(15);
  });
});
