import OpenAI from 'openai';
import type { Logger } from '../logger';

export interface OpenAiChatOptions {
  apiKey: string;
  /** OPENAI_MODEL. */
  model: string;
  logger: Logger;
  /** Per attempt. */
  timeoutMs: number;
  maxRetries?: number;
  baseURL?: string;
}

/** What a provider built on this call is given (its own default timeout when none). */
export type OpenAiProviderOptions = Omit<OpenAiChatOptions, 'timeoutMs'> & { timeoutMs?: number };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** How much a caller lets the model write: a sampling temperature for chat models, token ceilings for both kinds. */
export interface ChatBudget {
  temperature: number;
  maxTokens: number;
  /** Reasoning models spend completion tokens on reasoning too, so they get more. */
  reasoningMaxTokens: number;
}

/**
 * OpenAI Chat Completions (POST /v1/chat/completions) with the model from OPENAI_MODEL: the one call the help
 * assistant and the ad copywriter make. Each caller keeps its prompt and its error; this keeps the client, the
 * model's kind and the logging.
 */
export class OpenAiChat {
  private readonly client: OpenAI;

  constructor(private readonly opts: OpenAiChatOptions) {
    this.client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL, timeout: opts.timeoutMs, maxRetries: opts.maxRetries ?? 1 });
  }

  /**
   * The first choice's text, trimmed; null when the request failed or the model answered nothing (both logged
   * as `openai <what> …`, without the prompt), so the caller answers its own "unavailable" error.
   */
  async complete(messages: ChatMessage[], budget: ChatBudget, what: string): Promise<string | null> {
    let content: string | null | undefined;
    try {
      // Reasoning models (o-series, gpt-5) take no temperature and spend completion tokens on reasoning.
      const reasoning = /^(?:o\d|gpt-5)/i.test(this.opts.model);
      const completion = await this.client.chat.completions.create({
        model: this.opts.model,
        messages,
        ...(reasoning
          ? { reasoning_effort: 'low' as const, max_completion_tokens: budget.reasoningMaxTokens }
          : { temperature: budget.temperature, max_completion_tokens: budget.maxTokens }),
        n: 1,
      });
      content = completion.choices[0]?.message?.content;
    } catch (err) {
      const e = err as { status?: number; name?: string; message?: string };
      this.opts.logger.warn({ status: e.status, error: e.name, message: e.message }, `openai ${what} request failed`);
      return null;
    }
    const text = (content ?? '').trim();
    if (!text) this.opts.logger.warn(`openai returned no ${what}`);
    return text || null;
  }
}
