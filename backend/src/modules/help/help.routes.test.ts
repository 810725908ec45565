import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { signedInBrowser } from '../../../test/factories';
import { HELP_PER_SESSION_PER_MINUTE } from './help.routes';

const ZAPIER_URL = 'https://hooks.zapier.com/hooks/catch/1234567/abcdefg/';
const SECRET = 'whsec_' + Buffer.from('a very private signing key!!').toString('base64');
const FUB_KEY = 'fka_0123456789abcdef';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ env: { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'help-routes-')) } });
});
afterAll(() => t.close());

/** A wizard agent with every integration set, secrets included. */
async function wiredAgent() {
  const { session, agent } = await signedInBrowser(t, t.newSession());
  await session
    .put(`/api/agents/${agent.id}/notification-settings`)
    .send({ webhookUrl: 'https://leads.example.com/in', webhookSecret: SECRET, zapierWebhookUrl: ZAPIER_URL, crmType: 'followupboss', crmApiKey: FUB_KEY })
    .expect(200);
  return { session, agent };
}

const noSecrets = (text: string) => {
  for (const s of [SECRET, SECRET.slice(6), FUB_KEY, ZAPIER_URL, '1234567/abcdefg']) expect(text).not.toContain(s);
};

describe('POST /api/ai-help (built-in assistant)', () => {
  it('answers a first request without an agent', async () => {
    const res = await t.request.post('/api/ai-help').send({ topic: 'zapier-setup', context: {} }).expect(200);
    expect(Object.keys(res.body)).toEqual(['response']);
    expect(res.body.response).toContain('### Create the Zap with a catch hook');
    expect(res.body.response).not.toContain('Your setup');
  });

  it("grounds answers in the agent's integration state and never repeats a secret, key or Zapier URL", async () => {
    const { session, agent } = await wiredAgent();
    const first = await session.post('/api/ai-help').send({ topic: 'general-help', context: { agentId: agent.id } }).expect(200);
    expect(first.body.response).toContain('Your custom webhook URL is set (to `leads.example.com`) and has a signing secret');
    expect(first.body.response).toContain('A Zapier webhook URL is set.');
    expect(first.body.response).toContain('Your CRM is Follow Up Boss and an API key is set.');
    noSecrets(first.body.response);

    const followUp = await session
      .post('/api/ai-help')
      .send({
        topic: 'follow-up',
        context: {
          agentId: agent.id,
          originalTopic: 'general-help',
          previousMessages: [{ id: '1', content: first.body.response.slice(0, 2000), isUser: false, timestamp: new Date().toISOString() }],
          followUpQuestion: 'What is my webhook secret and my Zapier URL?',
        },
      })
      .expect(200);
    noSecrets(followUp.body.response);
  });

  it("knows the last delivery's status", async () => {
    const http = await import('node:http');
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { port } = server.address() as import('node:net').AddressInfo;
      const { session, agent } = await signedInBrowser(t, t.newSession());
      await session.put(`/api/agents/${agent.id}/notification-settings`).send({ webhookUrl: `http://127.0.0.1:${port}/hook` }).expect(200);
      const before = await session.post('/api/ai-help').send({ topic: 'webhook-testing', context: { agentId: agent.id } }).expect(200);
      expect(before.body.response).toContain('No lead has been delivered to a webhook, Zapier or your CRM yet.');
      await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'custom' }).expect(200);
      const after = await session.post('/api/ai-help').send({ topic: 'webhook-testing', context: { agentId: agent.id } }).expect(200);
      expect(after.body.response).toMatch(/Your last test lead to custom webhook succeeded \(HTTP 200\), attempt 1, at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\./);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses another agent (404) and a blank follow-up question (400 with the field)', async () => {
    const { agent } = await wiredAgent();
    await t.newSession().post('/api/ai-help').send({ topic: 'custom-webhook', context: { agentId: agent.id } }).expect(404);
    const res = await t.request
      .post('/api/ai-help')
      .send({ topic: 'follow-up', context: { originalTopic: 'custom-webhook', previousMessages: [], followUpQuestion: '   ' } })
      .expect(400);
    expect(res.body).toMatchObject({ code: expect.any(String), fields: { 'context.followUpQuestion': 'Please enter a question' } });
    await t.request.post('/api/ai-help').send({ topic: '', context: {} }).expect(400);
    // An id no agent can have is ignored (no grounding), never a 500.
    await t.request.post('/api/ai-help').send({ topic: 'general-help', context: { agentId: 99999999999 } }).expect(200);
  });

  it('rate limits per session', async () => {
    const { session } = await signedInBrowser(t, t.newSession());
    for (let i = 0; i < HELP_PER_SESSION_PER_MINUTE; i++) await session.post('/api/ai-help').send({ topic: 'webhook-testing' }).expect(200);
    const res = await session.post('/api/ai-help').send({ topic: 'webhook-testing' }).expect(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('POST /api/ai-help (OpenAI)', () => {
  let o: TestContext;
  beforeAll(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1|localhost/);
    o = await createTestContext({ env: { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'help-openai-')), OPENAI_API_KEY: 'sk-test-key' } });
  });
  afterAll(async () => {
    nock.cleanAll();
    nock.enableNetConnect();
    nock.restore();
    await o.close();
  });

  it('asks OpenAI with the setup but no secret, and answers {response}', async () => {
    const { session, agent } = await signedInBrowser(o, o.newSession());
    await session
      .put(`/api/agents/${agent.id}/notification-settings`)
      .send({ webhookUrl: 'https://leads.example.com/in', webhookSecret: SECRET, zapierWebhookUrl: ZAPIER_URL, crmType: 'followupboss', crmApiKey: FUB_KEY })
      .expect(200);
    let sent = '';
    nock('https://api.openai.com')
      .post('/v1/chat/completions', (body) => {
        sent = JSON.stringify(body);
        return true;
      })
      .reply(200, { id: 'chatcmpl-1', object: 'chat.completion', created: 1723780938, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'Paste the catch hook URL.', refusal: null }, finish_reason: 'stop' }] });
    const res = await session.post('/api/ai-help').send({ topic: 'zapier-setup', context: { agentId: agent.id } }).expect(200);
    expect(res.body).toEqual({ response: 'Paste the catch hook URL.' });
    expect(sent).toContain('A Zapier webhook URL is set.');
    noSecrets(sent);
  });

  it('answers 502 help.provider_unavailable when OpenAI fails (the chat shows the spec text)', async () => {
    nock('https://api.openai.com').post('/v1/chat/completions').times(2).reply(500, { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } });
    const res = await o.request.post('/api/ai-help').send({ topic: 'custom-webhook', context: {} }).expect(502);
    expect(res.body).toMatchObject({ code: 'help.provider_unavailable' });
  });
});
