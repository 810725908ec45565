import nock from 'nock';
import { nockStrict } from '../../../../test/nock-strict';
import { AppError } from '../../../platform/errors';
import { createLogger } from '../../../platform/logger';
import type { IntegrationState } from '../../notifications';
import { OpenAiHelpAssistant } from './openai-assistant';

/*
 * Contract tests against the OpenAI Chat Completions API's documented shapes:
 * POST https://api.openai.com/v1/chat/completions with { model, messages: [{ role, content }] } and a
 * bearer key; the answer is a "chat.completion" object; errors are { error: { message, type, param, code } }.
 */

const API = 'https://api.openai.com';
const logger = createLogger('silent');

nockStrict();

const completion = (content: string) => ({
  id: 'chatcmpl-9wiSIg5LYrrpxwsr2PubSQnbtod1P',
  object: 'chat.completion',
  created: 1723780938,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 2100, completion_tokens: 64, total_tokens: 2164 },
});

const wired: IntegrationState = {
  emailNotifications: true,
  instantNotifications: false,
  webhook: { urlSet: true, host: 'leads.example.com', secretSet: true, disabled: false },
  zapier: { urlSet: true, disabled: false },
  crm: { type: 'custom', name: 'Other CRM (JSON webhook)', urlSet: true, apiKeySet: true, disabled: false },
  lastDelivery: { channel: 'zapier', kind: 'lead.test', status: 'succeeded', responseCode: 200, attempt: 1, at: '2026-11-23T18:00:00.000Z' },
};

const provider = () => new OpenAiHelpAssistant({ apiKey: 'sk-test-key', model: 'gpt-4o-mini', logger, maxRetries: 0 });

describe('OpenAI help assistant', () => {
  it('sends a system prompt built from our articles and the setup, the last messages and the question', async () => {
    let sent: { model: string; messages: { role: string; content: string }[] } | undefined;
    nock(API, { reqheaders: { authorization: 'Bearer sk-test-key' } })
      .post('/v1/chat/completions', (body) => {
        sent = body;
        return true;
      })
      .reply(200, completion('Use **Webhooks by Zapier → Catch Hook**.'));

    const answer = await provider().answer({
      topic: 'zapier-setup',
      question: 'Which trigger do I pick?',
      previousMessages: [
        { content: 'Zapier sends your leads on…', isUser: false },
        { content: 'Do I need a paid plan?', isUser: true },
      ],
      integration: wired,
    });

    expect(answer).toBe('Use **Webhooks by Zapier → Catch Hook**.');
    expect(sent!.model).toBe('gpt-4o-mini');
    expect(sent!.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user', 'user']);
    const system = sent!.messages[0].content;
    expect(system).toContain("The chat's topic: Zapier Integration.");
    expect(system).toContain('# Custom Webhook Setup');
    expect(system).toContain('# Zapier Integration');
    expect(system).toContain('- A Zapier webhook URL is set.');
    expect(system).toContain('Your last test lead to Zapier succeeded (HTTP 200)');
    expect(system).toContain('Never ask for or repeat secrets');
    expect(sent!.messages[3]).toEqual({ role: 'user', content: 'Which trigger do I pick?' });
  });

  it('asks for an introduction on the first request, and says when the agent is unknown', async () => {
    let sent: { messages: { role: string; content: string }[] } | undefined;
    nock(API)
      .post('/v1/chat/completions', (body) => {
        sent = body;
        return true;
      })
      .reply(200, completion('Hello'));
    await provider().answer({ topic: 'crm-integration', question: null, previousMessages: [], integration: null });
    expect(sent!.messages).toHaveLength(2);
    expect(sent!.messages[1].content).toMatch(/^Give me a short introduction to CRM Integration/);
    expect(sent!.messages[0].content).toContain('The agent is not known');
  });

  it.each([
    [429, { error: { message: 'Rate limit reached for gpt-4o-mini', type: 'requests', param: null, code: 'rate_limit_exceeded' } }],
    [401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }],
    [500, { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } }],
  ])('turns an OpenAI %p into help.provider_unavailable (502)', async (status, body) => {
    nock(API).post('/v1/chat/completions').reply(status, body);
    const err = await provider()
      .answer({ topic: 'general-help', question: 'Hi', previousMessages: [], integration: null })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 502, code: 'help.provider_unavailable' });
  });

  it('refuses an empty completion', async () => {
    nock(API).post('/v1/chat/completions').reply(200, completion('   '));
    await expect(provider().answer({ topic: 'general-help', question: 'Hi', previousMessages: [], integration: null })).rejects.toMatchObject({ code: 'help.provider_unavailable' });
  });
});
