import type { MlsMember } from '../../agents';
import type { MappedBatch } from '../reso-mapping';

/**
 * The MLS behind one small interface (DESIGN §1, providers). Two implementations:
 * the RESO Web API (reso.provider.ts) and the bundled demo MLS (demo.provider.ts).
 * Both read RESO-shaped records and map them with the same code (reso-mapping.ts).
 */
export interface MlsProvider {
  readonly name: 'reso' | 'demo';
  /** Active members with this name in this state (two-letter code), best first. */
  searchMembers(name: string, state: string): Promise<MlsMember[]>;
  /** The member's listings (ListAgentMlsId), mapped; bad records are counted, never thrown. */
  listingsForAgent(memberMlsId: string): Promise<MappedBatch>;
}

/** The MLS could not be asked (unreachable, refused, answered nonsense). Routes turn it into a 502. */
export class MlsProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MlsProviderError';
  }
}

/** An OData collection answer: `{ value: [...], "@odata.nextLink"?: url }`. Anything else is a provider error. */
export function readCollection(body: unknown, resource: string): { value: unknown[]; nextLink: string | null; count: number | null } {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { value?: unknown }).value)) {
    throw new MlsProviderError(`${resource}: the answer has no "value" array`);
  }
  const next = (body as Record<string, unknown>)['@odata.nextLink'];
  const count = (body as Record<string, unknown>)['@odata.count'];
  return {
    value: (body as { value: unknown[] }).value,
    nextLink: typeof next === 'string' && next ? next : null,
    count: typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null,
  };
}
