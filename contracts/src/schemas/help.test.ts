import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import { buildHelpFollowUp } from '../help.js';
import { helpFirstRequestSchema, helpFollowUpRequestSchema, helpRequestSchema } from './help.js';

const errorsOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return fieldErrors(r.error);
};

const first = { topic: 'custom-webhook', context: { agentId: 3, webhookUrl: 'https://x.example.com', hasSecret: false } };
const messages = [
  { id: '1', content: 'How do I set up a webhook?', isUser: true, timestamp: new Date('2025-01-01T00:00:00Z') },
  { id: '2', content: 'Paste your HTTPS endpoint…', isUser: false, timestamp: new Date('2025-01-01T00:00:01Z') },
  { id: '3', content: 'Which events are sent?', isUser: true, timestamp: new Date('2025-01-01T00:00:02Z') },
];

describe('help requests', () => {
  it('accepts a first request', () => {
    expect(helpRequestSchema.parse(first)).toEqual(first);
    expect(helpFirstRequestSchema.parse({ topic: 'general-help' })).toEqual({ topic: 'general-help', context: {} });
  });

  it('builds a follow-up with the original context and the last 2 messages', () => {
    const body = buildHelpFollowUp(first, messages, '  Is it signed?  ');
    expect(body).toEqual({
      topic: 'follow-up',
      context: {
        agentId: 3,
        webhookUrl: 'https://x.example.com',
        hasSecret: false,
        originalTopic: 'custom-webhook',
        previousMessages: [
          { id: '2', content: 'Paste your HTTPS endpoint…', isUser: false, timestamp: '2025-01-01T00:00:01.000Z' },
          { id: '3', content: 'Which events are sent?', isUser: true, timestamp: '2025-01-01T00:00:02.000Z' },
        ],
        followUpQuestion: 'Is it signed?',
      },
    });
    expect(helpRequestSchema.parse(body)).toEqual(body);
  });

  it('rejects a blank follow-up question', () => {
    const body = buildHelpFollowUp(first, messages, '   ');
    expect(errorsOf(helpRequestSchema, body)).toEqual({ 'context.followUpQuestion': 'Please enter a question' });
  });

  it('rejects more than 2 previous messages', () => {
    const body = buildHelpFollowUp(first, messages, 'Q?');
    body.context.previousMessages = [...body.context.previousMessages, { content: 'x', isUser: true }];
    expect(errorsOf(helpFollowUpRequestSchema, body)).toEqual({
      'context.previousMessages': 'At most 2 previous messages',
    });
  });

  it('rejects a blank topic, nested context values and a non-object body', () => {
    expect(errorsOf(helpRequestSchema, { topic: ' ', context: { settings: { a: 1 } } })).toEqual({
      topic: 'Topic is required',
      'context.settings': expect.any(String),
    });
    expect(errorsOf(helpRequestSchema, 'help')).toEqual({ _root: 'Expected an object with topic and context' });
  });

  it('does not let a first request use the follow-up topic without its fields', () => {
    expect(errorsOf(helpRequestSchema, { topic: 'follow-up', context: {} })).toEqual({
      'context.originalTopic': 'Topic is required',
      'context.followUpQuestion': 'Please enter a question',
    });
  });
});
