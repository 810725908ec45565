import { LIMITS, type TemplateType } from '@app/contracts';
import { rewriteForFairHousing } from '../fair-housing/fair-housing';
import { listingFacts, type ListingForCopy } from './listing-facts';
import type { AdCopyProvider } from './providers/ad-copy-provider';
import { writeBuiltinCopy } from './providers/builtin-copywriter';

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
