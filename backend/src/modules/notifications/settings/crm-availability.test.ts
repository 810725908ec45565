import { createTestContext } from '../../../../test/helpers';
import { signedInBrowser } from '../../../../test/factories';

const settingsUrl = (id: number) => `/api/agents/${id}/notification-settings`;

// A server with Real Geeks' product credentials (its own context: the CRM list is fixed per configuration).
describe('Real Geeks availability', () => {
  it('offers Real Geeks once the server has its credentials, and saves its site UUID as a write-only key', async () => {
    const rg = await createTestContext({ env: { REALGEEKS_API_USERNAME: 'listingads', REALGEEKS_API_PASSWORD: 's3cret' } });
    try {
      expect((await rg.request.get('/api/crm-integrations').expect(200)).body.map((c: { type: string }) => c.type)).toEqual(['followupboss', 'hubspot', 'realgeeks', 'lofty', 'custom']);
      const { session, agent } = await signedInBrowser(rg, rg.newSession());
      expect((await session.put(settingsUrl(agent.id)).send({ crmType: 'realgeeks' }).expect(400)).body.fields).toEqual({ crmApiKey: 'An API key is required for this CRM' });
      const saved = await session.put(settingsUrl(agent.id)).send({ crmType: 'realgeeks', crmApiKey: '4a9f0c1e-2b3d-4e5f-8a6b-7c8d9e0f1a2b' }).expect(200);
      expect(saved.body).toMatchObject({ crmType: 'realgeeks', hasCrmApiKey: true, crmWebhookUrl: null });
      expect(JSON.stringify(saved.body)).not.toContain('4a9f0c1e');
    } finally {
      await rg.close();
    }
  });
});
