import type { ListingResponse, PublicCampaign } from '@app/contracts';

/** Which page the server rendered. */
export type ListingPageKind = 'listing' | 'manual' | 'not-found';

/**
 * What the server renders a listing page from and inlines (escaped) for hydration. The listing and the
 * campaign seed RTK Query's cache; the form token is the lead form's signed render time.
 */
export interface ListingPageData {
  kind: ListingPageKind;
  mlsId: string;
  response: ListingResponse | null;
  campaign: PublicCampaign;
  formToken: string;
  /** The page's canonical absolute URL (kept with the lead's consent record). */
  pageUrl: string;
}

/** The id of the inlined data's <script type="application/json">. */
export const PAGE_DATA_ID = 'listing-page-data';

/**
 * JSON that is safe inside a <script> element: "<", ">" and "&" (so "</script>" and "<!--" cannot
 * close or confuse the element) and the two line separators JavaScript once treated as newlines.
 */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
