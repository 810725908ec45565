import { helpTitle } from '@app/contracts';
import { OpenAiChat, type OpenAiProviderOptions } from '../../../platform/outbound/openai-chat';
import { loadArticles } from '../articles';
import { groundingFor } from '../grounding';
import { helpUnavailable } from '../help.errors';
import type { HelpProvider, HelpQuestion } from './help-provider';

export type OpenAiHelpOptions = OpenAiProviderOptions;

/**
 * The system prompt: our articles (so answers follow what the product really does: field names, the
 * payload, the signature scheme) and the agent's integration state (booleans and statuses only: no
 * secret, key or credential URL ever reaches the prompt, so the model cannot repeat one).
 */
export function buildSystemPrompt(q: HelpQuestion): string {
  const setup = groundingFor('general-help', q.integration);
  return [
    'You are the help assistant of Listing Ads, a product that sends real-estate leads to agents by email, a signed custom webhook, Zapier and CRMs (Follow Up Boss or any CRM with a JSON webhook).',
    'Answer the agent in Markdown, briefly and concretely, using only the help articles below for product facts (field names, payload, Standard Webhooks signature, retries, status codes).',
    'If the articles do not answer the question, say so plainly and name the closest article. Never invent settings or endpoints.',
    'Never ask for or repeat secrets, API keys or full webhook URLs.',
    `The chat's topic: ${helpTitle(q.topic)}.`,
    setup.length ? `The agent's current setup:\n${setup.map((l) => `- ${l}`).join('\n')}` : 'The agent is not known (not logged in): do not describe their setup.',
    '--- Help articles ---',
    ...loadArticles().map((a) => a.markdown.trim()),
  ].join('\n\n');
}

export function buildMessages(q: HelpQuestion): { role: 'system' | 'user' | 'assistant'; content: string }[] {
  const history = q.previousMessages.map((m) => ({ role: m.isUser ? ('user' as const) : ('assistant' as const), content: m.content }));
  const ask = q.question ?? `Give me a short introduction to ${helpTitle(q.topic) === 'Help Assistant' ? 'lead notifications (custom webhook, Zapier, CRM, testing)' : helpTitle(q.topic)}, with my setup and the first steps.`;
  return [{ role: 'system', content: buildSystemPrompt(q) }, ...history, { role: 'user', content: ask }];
}

/** OpenAI Chat Completions (platform/outbound/openai-chat.ts) with the model from OPENAI_MODEL. */
export class OpenAiHelpAssistant implements HelpProvider {
  readonly name = 'openai' as const;
  private readonly chat: OpenAiChat;

  constructor(opts: OpenAiHelpOptions) {
    this.chat = new OpenAiChat({ ...opts, timeoutMs: opts.timeoutMs ?? 30_000 });
  }

  async answer(q: HelpQuestion): Promise<string> {
    const text = await this.chat.complete(buildMessages(q), { temperature: 0.2, maxTokens: 1200, reasoningMaxTokens: 4000 }, 'help answer');
    if (!text) throw helpUnavailable();
    return text;
  }
}
