import type { Config } from '../../../platform/config';
import type { Logger } from '../../../platform/logger';
import type { HelpProvider } from './help-provider';
import { BuiltinHelpAssistant } from './builtin-assistant';
import { OpenAiHelpAssistant } from './openai-assistant';

/** The provider configuration names (config.providers.ai): OpenAI with OPENAI_API_KEY, else the built-in assistant. */
export function createHelpProvider(config: Config, logger: Logger): HelpProvider {
  const provider: HelpProvider =
    config.providers.ai === 'openai' && config.OPENAI_API_KEY
      ? new OpenAiHelpAssistant({ apiKey: config.OPENAI_API_KEY, model: config.OPENAI_MODEL, logger })
      : new BuiltinHelpAssistant();
  logger.info({ provider: provider.name }, 'help assistant: %s', provider.name);
  return provider;
}

export type { HelpProvider, HelpQuestion } from './help-provider';
