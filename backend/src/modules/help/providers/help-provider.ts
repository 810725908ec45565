import type { IntegrationState } from '../../notifications';

/** One question to the help assistant, as the route hands it over. */
export interface HelpQuestion {
  /** The chat's topic: the first request's, or a follow-up's originalTopic (e.g. 'custom-webhook', 'general-help'). */
  topic: string;
  /** The agent's follow-up question; null for the first answer of a chat. */
  question: string | null;
  /** The last messages of the chat (at most 2), oldest first. */
  previousMessages: { content: string; isUser: boolean }[];
  /** What the agent has wired up (no secrets); null when no agent is known. */
  integration: IntegrationState | null;
}

/**
 * Answers help questions in Markdown. Two providers: OpenAI (with OPENAI_API_KEY), grounded in our
 * articles and the agent's integration state, and the built-in assistant that answers from the articles
 * alone (no network). The interface never imports its implementations.
 */
export interface HelpProvider {
  readonly name: 'openai' | 'builtin';
  answer(q: HelpQuestion): Promise<string>;
}
