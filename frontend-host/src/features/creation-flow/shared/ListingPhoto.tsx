import { useState } from 'react';

/** Stock image for a listing without photos, or whose photo fails to load (spec 000 §2). */
export const LISTING_PLACEHOLDER = '/images/listing-placeholder.svg';

const UPLOAD_PATH = /^\/objects\/uploads\/[^/?#]+$/;

/** Uploaded photos have resized variants: ask for the small one where a thumbnail is shown. */
export function thumbnailUrl(url: string, width: 320 | 640 = 320): string {
  return UPLOAD_PATH.test(url) ? `${url}?w=${width}` : url;
}

/** A listing's first photo (imageUrl, then images), or null. */
export function primaryPhoto(listing: { imageUrl?: string | null; images?: readonly string[] | null }): string | null {
  const first = [listing.imageUrl, ...(listing.images ?? [])].find((u) => typeof u === 'string' && u.trim() !== '');
  return first ?? null;
}

export interface ListingPhotoProps {
  src: string | null;
  alt: string;
  className?: string;
  width?: 320 | 640;
}

/** A listing photo that falls back to the stock placeholder when missing or broken. */
export function ListingPhoto({ src, alt, className, width = 320 }: ListingPhotoProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const usable = src && failed !== src ? thumbnailUrl(src, width) : LISTING_PLACEHOLDER;
  return (
    <img
      src={usable}
      alt={alt}
      className={className}
      loading="lazy"
      decoding="async"
      onError={() => {
        if (src && usable !== LISTING_PLACEHOLDER) setFailed(src);
      }}
    />
  );
}
