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
