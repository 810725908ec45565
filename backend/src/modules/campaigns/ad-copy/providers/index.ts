import type { Config } from '../../../../platform/config';
import type { Logger } from '../../../../platform/logger';
import type { AdCopyProvider } from './ad-copy-provider';
import { BuiltinCopywriter } from './builtin-copywriter';
import { OpenAiCopywriter } from './openai-copywriter';

/** The provider configuration names (config.providers.ai): OpenAI with OPENAI_API_KEY, else the built-in copywriter. */
export function createAdCopyProvider(config: Config, logger: Logger): AdCopyProvider {
  if (config.providers.ai === 'openai' && config.OPENAI_API_KEY) {
    return new OpenAiCopywriter({ apiKey: config.OPENAI_API_KEY, model: config.OPENAI_MODEL, logger });
  }
  return new BuiltinCopywriter();
}

export type { AdCopyProvider } from './ad-copy-provider';
