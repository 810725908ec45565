import type { ListingFacts } from '../listing-facts';

export interface WriteOptions {
  /** 0 for the first copy of a listing; each refresh asks for the next variant. */
  variant: number;
  refresh: boolean;
}

/**
 * Writes Facebook/Instagram primary text for a listing. Two providers: OpenAI (with OPENAI_API_KEY)
 * and the built-in copywriter (no network). Both return plain text; the Fair Housing check runs
 * on whatever they return (ad-copy.service.ts), so neither is trusted to be compliant.
 */
export interface AdCopyProvider {
  readonly name: 'openai' | 'builtin';
  write(facts: ListingFacts, options: WriteOptions): Promise<string>;
}
