import { LIMITS, type TemplateType } from '@app/contracts';
import type { Config } from '../../../platform/config';
import type { Logger } from '../../../platform/logger';
import { rewriteForFairHousing } from '../fair-housing/fair-housing';
import { listingFacts, type ListingForCopy } from './listing-facts';
import type { AdCopyProvider } from './providers/ad-copy-provider';
import { BuiltinCopywriter, writeBuiltinCopy } from './providers/builtin-copywriter';
import { OpenAiCopywriter } from './providers/openai-copywriter';

/** The provider configuration names (config.providers.ai): OpenAI with OPENAI_API_KEY, else the built-in copywriter. */
export function createAdCopyProvider(config: Config, logger: Logger): AdCopyProvider {
  if (config.providers.ai === 'openai' && config.OPENAI_API_KEY) {
    return new OpenAiCopywriter({ apiKey: config.OPENAI_API_KEY, model: config.OPENAI_MODEL, logger });
  }
  return new BuiltinCopywriter();
}

export interface OptimizeAdCopyInput {
  listing: ListingForCopy;
  templateType: TemplateType;
  variant: number;
  refresh: boolean;
}

/**
 * Ad copy for a listing: the provider writes, the Fair Housing check rewrites (or drops sentences),
 * and if nothing compliant is left the built-in copywriter's text stands in (it uses no
 * words from the rule list, and is checked all the same).
 */
export async function optimizeAdCopy(provider: AdCopyProvider, input: OptimizeAdCopyInput): Promise<string> {
  const facts = listingFacts(input.listing, input.templateType);
  const written = await provider.write(facts, { variant: input.variant, refresh: input.refresh });
  let text = rewriteForFairHousing(written).text;
  if (!text) text = rewriteForFairHousing(writeBuiltinCopy(facts, input.variant)).text;
  return text.slice(0, LIMITS.description);
}
