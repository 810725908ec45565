/**
 * Documented Graph API shapes for the Meta launch tests (nock) and the fake Graph server (crash test,
 * bench): what each endpoint the launch calls answers, and Meta's error body.
 * https://developers.facebook.com/docs/graph-api/guides/error-handling
 */

export const META_TEST_ENV = {
  META_ACCESS_TOKEN: 'test-meta-token',
  META_AD_ACCOUNT_ID: 'act_1234',
  META_PAGE_ID: '5555',
  PUBLIC_URL: 'https://app.example.com',
};

export type Edge = 'campaigns' | 'adsets' | 'adimages' | 'adcreatives' | 'ads';

/** A created object: POST /act_{id}/{campaigns|adsets|adcreatives|ads} answers {id}. */
export function createdBody(edge: Edge, n: number): Record<string, unknown> {
  const prefix = { campaigns: '1200', adsets: '2300', adcreatives: '3400', ads: '4500', adimages: '' }[edge];
  if (edge === 'adimages') return { images: { bytes: { hash: `imghash${n}`, url: `https://scontent.example.com/img${n}.jpg` } } };
  return { id: `${prefix}${String(n).padStart(8, '0')}` };
}

/** GET /search?type=adinterest&q=… → {data: [{id, name, audience_size_lower_bound, audience_size_upper_bound, path, topic}]} */
export function interestSearchBody(q: string): Record<string, unknown> {
  let h = 0;
  for (const ch of q) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return {
    data: [{ id: `6003${String(h).padStart(10, '0')}`, name: q, audience_size_lower_bound: 1000000, audience_size_upper_bound: 1200000, path: ['Interests', q], topic: 'Business and industry' }],
  };
}

export function graphError(code: number, message: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEfGh123', ...extra } };
}

/** Form-encoded Graph POST body → object, with the JSON-encoded fields parsed. */
export function parseGraphForm(raw: string): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    try {
      out[k] = /^[[{]/.test(v) ? JSON.parse(v) : v;
    } catch {
      out[k] = v;
    }
  }
  return out;
}

/** Every key anywhere in a value (to prove targeting carries no age, gender or ZIP key at any depth). */
export function deepKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(deepKeys);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...deepKeys(v)]);
  return [];
}
