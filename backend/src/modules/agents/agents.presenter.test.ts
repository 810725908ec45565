import { agentViewSchema } from '@app/contracts';
import { Agent } from './agent.model';
import { presentAgent } from './agents.presenter';

const base = {
  id: 7, name: 'Dana Whitfield', email: null, phone: null, state: 'FL', brokerage: null, mlsId: null, mlsEmail: null,
  source: 'manual', profileImageUrl: null, logoUrl: null, passwordHash: null, googleId: null, webhookUrl: null,
  webhookSecretEnc: 'enc:secret', emailNotifications: true, instantNotifications: true, crmType: null, crmWebhookUrl: null,
  crmApiKeyEnc: 'enc:key', zapierWebhookUrl: null, createdAt: new Date('2026-11-20T10:00:00Z'), updatedAt: new Date('2026-11-21T10:00:00Z'),
};

describe('presentAgent → the AgentView contract', () => {
  it('a manual agent with nothing optional parses, and no secret is on the wire', () => {
    const view = presentAgent(Agent.fromJson(base, { skipValidation: true }));
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
    );
    expect(agentViewSchema.strict().parse(view)).toEqual(view);
    expect(view.hasPassword).toBe(true);
  });
});
