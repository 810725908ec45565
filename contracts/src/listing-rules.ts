import { CAROUSEL_MAX, CAROUSEL_MIN } from './ad-defaults.js';

/** Manual listings get an mlsId of "MANUAL-" + a timestamp (spec 000 §3). */
export const MANUAL_MLS_PREFIX = 'MANUAL-';

export const LISTING_STATUSES = ['active', 'sold'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/** "MANUAL-1712345678901" for the given time (ms since epoch; default now). */
export function manualMlsId(nowMs: number = Date.now()): string {
  return `${MANUAL_MLS_PREFIX}${Math.trunc(nowMs)}`;
}

export function isManualMlsId(mlsId: string | null | undefined): boolean {
  return typeof mlsId === 'string' && mlsId.startsWith(MANUAL_MLS_PREFIX);
}

/** Public page of a listing: /manual-listing/{mlsId} for manual listings, else /listing/{mlsId}. */
export function listingPagePath(mlsId: string): string {
  const enc = encodeURIComponent(mlsId);
  return isManualMlsId(mlsId) ? `/manual-listing/${enc}` : `/listing/${enc}`;
}

export interface ListingImagesSource {
  imageUrl?: string | null;
  images?: readonly (string | null | undefined)[] | null;
}

/**
 * A listing's photos in order: the primary imageUrl, then images, blanks removed and
 * duplicates dropped (a manual listing's primary image is usually also images[0]).
 */
export function listingImages(listing: ListingImagesSource): string[] {
  const out: string[] = [];
  for (const raw of [listing.imageUrl, ...(listing.images ?? [])]) {
    const url = typeof raw === 'string' ? raw.trim() : '';
    if (url && !out.includes(url)) out.push(url);
  }
  return out;
}

/** Carousel is offered only when the listing has at least 2 distinct images. */
export function canUseCarousel(listing: ListingImagesSource): boolean {
  return listingImages(listing).length >= CAROUSEL_MIN;
}

/** The carousel's seed: the first 10 of listingImages. */
export function carouselImagesForListing(listing: ListingImagesSource): string[] {
  return listingImages(listing).slice(0, CAROUSEL_MAX);
}
