import { OutboundError, type SafeFetch } from '../../../platform/outbound/http';
import type { AttemptOutcome } from './channel';

/** The first 1 KB of the receiver's answer is kept with the attempt. */
export const RESPONSE_BODY_LIMIT = 1024;

/** Retry-After: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

const reasonOf = (status: number) => {
  const reasons: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 410: 'Gone', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };
  return reasons[status] ? `${status} ${reasons[status]}` : String(status);
};
export { reasonOf as statusText };

/** A native CRM's failed answer as an attempt: its body kept (the first RESPONSE_BODY_LIMIT characters) with the words saying what to fix. */
export function failedAnswer(
  target: string,
  res: { status: number; text: string },
  error: string,
  opts: { retryAfterSeconds: number | null; permanent: boolean },
): AttemptOutcome {
  return {
    ok: false,
    target,
    statusCode: res.status,
    responseBody: res.text ? res.text.slice(0, RESPONSE_BODY_LIMIT) : null,
    error,
    warning: null,
    retryAfterSeconds: opts.retryAfterSeconds,
    gone: false,
    permanent: opts.permanent,
  };
}

/**
 * POST one request through the SSRF-safe client (no redirects followed) and classify the answer:
 * 2xx succeeds; 410 turns the endpoint off; everything else (3xx, 4xx, 5xx, network, timeout, refused
 * address) fails and is retried on the schedule, after Retry-After when the receiver gives one.
 */
export async function postAttempt(
  safeFetch: SafeFetch,
  req: { url: string; headers: Record<string, string>; body: string; target: string | null },
  now: Date,
): Promise<AttemptOutcome & { status?: number }> {
  const base = { target: req.target, warning: null, gone: false, permanent: false, retryAfterSeconds: null };
  try {
    const res = await safeFetch(req.url, { method: 'POST', headers: req.headers, body: req.body });
    let text = '';
    try {
      text = await res.text();
    } catch {
      text = '';
    }
    const responseBody = text ? text.slice(0, RESPONSE_BODY_LIMIT) : null;
    const ok = res.status >= 200 && res.status < 300;
    return {
      ...base,
      ok,
      statusCode: res.status,
      responseBody,
      error: ok ? null : res.status >= 300 && res.status < 400 ? `Receiver answered ${reasonOf(res.status)} (redirects are not followed)` : `Receiver answered ${reasonOf(res.status)}`,
      gone: res.status === 410,
      retryAfterSeconds: ok ? null : parseRetryAfter(res.headers.get('retry-after'), now),
    };
  } catch (err) {
    const message = err instanceof OutboundError ? `${err.code}: ${err.message}` : `network: ${(err as Error).message}`;
    return { ...base, ok: false, statusCode: null, responseBody: null, error: message };
  }
}
