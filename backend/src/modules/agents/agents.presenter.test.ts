import { agentViewSchema } from '@app/contracts';
import { Agent } from './agent.model';
import { presentAgent } from './agents.presenter';

const base = {
  id: 7, name: 'Dana Whitfield', email: null, phone: null, state: 'FL', brokerage: null, mlsId: null, mlsEmail: null,
  source: 'manual', profileImageUrl: null, logoUrl: null, passwordHash: null, googleId: null,
  // Stray secret-looking fields (settings moved to notification_settings) must still never reach the wire.
  webhookSecretEnc: 'enc:secret', crmApiKeyEnc: 'enc:key', createdAt: new Date('2026-11-20T10:00:00Z'), updatedAt: new Date('2026-11-21T10:00:00Z'),
};

describe('presentAgent → the AgentView contract', () => {
  it('a manual agent with nothing optional parses, and no secret is on the wire', () => {
    const view = presentAgent(Agent.fromJson(base, { skipValidation: true }), { access: 'signed_in' });
    expect(agentViewSchema.strict().parse(view)).toEqual(view);
    expect(view.hasPassword).toBe(false);
    expect(view.createdAt).toBe('2026-11-20T10:00:00.000Z');
    expect(JSON.stringify(view)).not.toMatch(/enc:|passwordHash|webhookSecret|crmApiKey/);
  });

  it('an MLS agent with an account and every field filled parses', () => {
    const view = presentAgent(
      Agent.fromJson(
        { ...base, email: 'dana@example.com', phone: '+1 813 555 0100', brokerage: 'Gulf Realty', mlsId: 'M123', source: 'mls',
          profileImageUrl: '/objects/uploads/a', logoUrl: 'https://cdn.example.com/l.png', passwordHash: '$argon2id$x' },
        { skipValidation: true },
      ),
      { access: 'signed_in', pendingEmail: null },
    );
    expect(agentViewSchema.strict().parse(view)).toEqual(view);
    expect(view.hasPassword).toBe(true);
  });
});

describe('presentAgent to a wizard browser (draft access)', () => {
  const member = {
    ...base, source: 'mls', mlsId: 'CA71265', name: 'Michael Chen', email: 'edited@stranger.example', phone: '(555) 010-9999',
    mlsName: 'Michael Chen', mlsEmail: 'michael@goldencoast.example', mlsPhone: '(408) 555-0187', mlsBrokerage: 'Golden Coast', verifiedAt: null,
  };

  it("shows what the MLS publishes for an identity nobody verified, with this browser's draft over it", () => {
    const agent = Agent.fromJson(member, { skipValidation: true });
    expect(presentAgent(agent, { access: 'draft' })).toMatchObject({ email: 'michael@goldencoast.example', phone: '(408) 555-0187', brokerage: 'Golden Coast', verified: false, access: 'draft' });
    const drafted = presentAgent(agent, { access: 'draft', draft: { phone: '(512) 555-0000', brokerage: null } });
    expect(agentViewSchema.strict().parse(drafted)).toEqual(drafted);
    expect(drafted).toMatchObject({ email: 'michael@goldencoast.example', phone: '(512) 555-0000', brokerage: null });
    expect(drafted).not.toHaveProperty('pendingEmail');
  });

  it("shows a verified identity's own branding", () => {
    const agent = Agent.fromJson({ ...member, verifiedAt: new Date(), email: 'michael@goldencoast.example', phone: '(408) 555-0100' }, { skipValidation: true });
    expect(presentAgent(agent, { access: 'draft' })).toMatchObject({ phone: '(408) 555-0100', verified: true });
  });
});
