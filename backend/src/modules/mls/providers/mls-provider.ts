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
  /**
   * One page of the feed's changes (replication, DESIGN §7): the server's `nextLink` when it gave one and it
   * can be followed, else the keyset query after `after` (every record when null). Records come as sent.
   */
  changesPage(request: ChangesRequest): Promise<ChangesPage>;
  /** A listing as the MLS has it now (RESO `Property('KEY')`, Media expanded); null when the MLS answers 404. */
  readListing(listingKey: string): Promise<unknown | null>;
}

/** Where replication stands: the last applied record's ModificationTimestamp (as the server wrote it) and ListingKey. */
export interface FeedCursor {
  timestamp: string;
  key: string;
}

export interface ChangesRequest {
  after: FeedCursor | null;
  /** The previous page's @odata.nextLink, if it had one. */
  nextLink: string | null;
  /** Records asked for by a keyset query ($top). */
  top: number;
}

export interface ChangesPage {
  records: unknown[];
  nextLink: string | null;
  /** How this page was asked for: a new keyset query, or the server's nextLink. */
  via: 'keyset' | 'nextLink';
  /** Why a nextLink was not followed (its $skip past the limit, or the server refused it), for the log. */
  fellBack?: string;
}

/** The MLS could not be asked (unreachable, refused, answered nonsense). Routes turn it into a 502. */
export class MlsProviderError extends Error {
  /** The MLS's HTTP status, when it answered. */
  readonly status?: number;
  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options);
    this.name = 'MlsProviderError';
    this.status = options?.status;
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
