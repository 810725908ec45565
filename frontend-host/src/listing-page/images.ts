/** Upload variants the server makes (backend uploads/variants.ts VARIANT_WIDTHS). */
const VARIANT_WIDTHS = [320, 640, 1280] as const;
const UPLOAD = /^\/objects\/uploads\/[0-9a-f-]{36}$/i;

/** srcset for an uploaded photo (WebP when the browser accepts it, chosen by the server); none for other URLs. */
export function srcSetOf(url: string): string | undefined {
  if (!UPLOAD.test(url)) return undefined;
  return VARIANT_WIDTHS.map((w) => `${url}?w=${w} ${w}w`).join(', ');
}

/** The src to use: a mid-size variant for uploads (the srcset picks better), the URL itself otherwise. */
export function srcOf(url: string): string {
  return UPLOAD.test(url) ? `${url}?w=640` : url;
}

/**
 * `sizes` of a photo as wide as the page's content: the whole screen below 900 px, the viewport less the
 * page's 16 px gutters above, at most the 1,200 px column less them (1,168 px). The browser then picks a
 * variant that fills the box instead of stretching a small one.
 */
export const FULL_WIDTH_SIZES = '(min-width: 1200px) 1168px, (min-width: 900px) calc(100vw - 32px), 100vw';
