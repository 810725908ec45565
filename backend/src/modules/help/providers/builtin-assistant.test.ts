import questions from '../testing/questions.json';
import type { IntegrationState } from '../../notifications';
import { answerBuiltin, BuiltinHelpAssistant, pickArticle } from './builtin-assistant';

const none: IntegrationState = {
  emailNotifications: true,
  instantNotifications: true,
  webhook: { urlSet: false, host: null, secretSet: false, disabled: false },
  zapier: { urlSet: false, disabled: false },
  crm: { type: null, name: null, urlSet: false, apiKeySet: false, disabled: false },
  lastDelivery: null,
};

const wired: IntegrationState = {
  ...none,
  webhook: { urlSet: true, host: 'crm.example.com', secretSet: true, disabled: false },
  zapier: { urlSet: true, disabled: true },
  crm: { type: 'followupboss', name: 'Follow Up Boss', urlSet: false, apiKeySet: true, disabled: false },
  lastDelivery: { channel: 'webhook', kind: 'lead.created', status: 'failed', responseCode: 401, attempt: 2, at: '2026-11-23T18:04:11.000Z' },
};

const ask = (question: string | null, topic = 'general-help', integration: IntegrationState | null = null) =>
  answerBuiltin({ topic, question, previousMessages: [], integration });

describe('built-in help assistant', () => {
  it('picks the right article for the 40 realistic questions (coverage)', () => {
    const misses = questions.filter((q) => pickArticle(q.question, 'general-help')?.topic !== q.expected);
    const hits = questions.length - misses.length;
    // The figure reported for issue 12; the misses are listed when the bar is not met.
    console.log(
      `help coverage: ${hits}/${questions.length}\n` +
        misses.map((m) => `  miss: ${m.question} → ${pickArticle(m.question, 'general-help')?.topic ?? 'none'} (want ${m.expected})`).join('\n'),
    );
    expect(questions).toHaveLength(40);
    expect(hits).toBeGreaterThanOrEqual(36);
  });

  it('opens a topic with its article and the agent\'s setup', () => {
    const first = ask(null, 'custom-webhook', wired);
    expect(first).toContain('signed HTTPS `POST`');
    expect(first).toContain('### Setting the webhook URL');
    expect(first).toContain('**Your setup:** Your custom webhook URL is set (to `crm.example.com`) and has a signing secret');
    expect(first).toContain('Your last lead delivery to custom webhook has the status **failed** (HTTP 401), attempt 2');
    expect(ask(null, 'custom-webhook', none)).toContain('You have not set a custom webhook URL yet.');
  });

  it('opens general help with every article and the whole setup', () => {
    const first = ask(null, 'general-help', wired);
    for (const title of ['Custom Webhook Setup', 'Zapier Integration', 'CRM Integration', 'Testing Webhooks']) expect(first).toContain(`**${title}**`);
    expect(first).toContain('A Zapier webhook URL is set. It is turned off because Zapier answered 410 Gone');
    expect(first).toContain('Your CRM is Follow Up Boss and an API key is set.');
  });

  it('answers a follow-up with the matching section and its code', () => {
    const python = ask('How do I verify the signature in Python?', 'custom-webhook');
    expect(python).toMatch(/^### Verify the signature in Python/);
    expect(python).toContain('def verify_webhook(raw_body: bytes, headers: dict, secret: str) -> bool:');
    expect(python).toContain('_From the help article **Custom Webhook Setup**._');
    const fub = ask('Where is my Follow Up Boss API key?', 'general-help', wired);
    expect(fub).toContain('### Follow Up Boss');
    expect(fub).toContain('Your CRM is Follow Up Boss and an API key is set.');
  });

  it('keeps a vague follow-up on the chat\'s topic', () => {
    expect(ask('What are the troubleshooting steps?', 'zapier-setup')).toContain('### Troubleshooting Zapier');
    expect(ask('What are the troubleshooting steps?', 'crm-integration')).toContain('### CRM troubleshooting');
  });

  it('says plainly when it has no answer, pointing to the relevant article', () => {
    const answer = ask('What is the weather in Miami tomorrow?', 'zapier-setup');
    expect(answer).toMatch(/^I don't have an answer to that in the help articles\. The closest help article is \*\*Zapier Integration\*\*, which covers: create the zap with a catch hook;/);
  });

  it('is the provider named builtin', async () => {
    const provider = new BuiltinHelpAssistant();
    expect(provider.name).toBe('builtin');
    await expect(provider.answer({ topic: 'webhook-testing', question: null, previousMessages: [], integration: null })).resolves.toBe(ask(null, 'webhook-testing'));
  });
});
