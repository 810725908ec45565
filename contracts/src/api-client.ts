/**
 * The spec's request client, shared by the host and both remotes (each wraps it in its own RTK Query
 * `createApi`). Plain fetch, no zod: the apps import this file by path, so the landing page does not
 * pull in the contracts barrel.
 */

import type { ApiErrorBody } from './errors.js';

export type { ApiErrorBody };

/** What a failed request resolves to in RTK Query's `error`. */
export interface ApiError {
  /** HTTP status, or why no usable response arrived. */
  status: number | 'FETCH_ERROR' | 'PARSE_ERROR';
  /** The spec's message: "<status>: <body text>", or the status text when the body is empty. */
  message: string;
  /** `message` parsed from a JSON error body, when the server sent one. */
  serverMessage: string | null;
  code: string | null;
  fields: Record<string, unknown> | null;
  /** The whole JSON error body, for fields beyond the usual ones (e.g. MLS load's `allowManualEntry`). */
  body?: Record<string, unknown> | null;
}

export interface RequestArgs {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  params?: Record<string, string | number | boolean | null | undefined>;
  /** The spec's default query throws on 401 unless configured to return null. */
  on401?: 'throw' | 'returnNull';
}

/** Thunk extra argument of every store built on this api. */
export interface ApiExtra {
  /** Origin + prefix for API calls; '' is the page's origin. */
  apiBaseUrl: string;
}

function buildUrl(base: string, url: string, params: RequestArgs['params']): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) query.set(key, String(value));
  }
  const search = query.toString();
  return `${base}${url}${search ? (url.includes('?') ? '&' : '?') + search : ''}`;
}

function parseErrorBody(text: string): (ApiErrorBody & Record<string, unknown>) | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as ApiErrorBody).message === 'string') {
      return parsed as ApiErrorBody & Record<string, unknown>;
    }
  } catch {
    // not JSON: the text itself is the detail
  }
  return null;
}

/**
 * The spec's request behaviour: cookies always (`credentials: 'include'`), JSON bodies,
 * parsed JSON responses, and a non-OK response becomes "<status>: <body text>".
 */
export async function apiBaseQuery(
  arg: string | RequestArgs,
  api: { signal: AbortSignal; extra: unknown },
): Promise<{ data: unknown } | { error: ApiError }> {
  const args: RequestArgs = typeof arg === 'string' ? { url: arg } : arg;
  const apiBaseUrl = (api.extra as Partial<ApiExtra> | undefined)?.apiBaseUrl ?? '';
  const hasBody = args.body !== undefined;

  let response: Response;
  try {
    response = await fetch(buildUrl(apiBaseUrl, args.url, args.params), {
      method: args.method ?? 'GET',
      credentials: 'include',
      headers: hasBody
        ? { 'Content-Type': 'application/json', Accept: 'application/json' }
        : { Accept: 'application/json' },
      body: hasBody ? JSON.stringify(args.body) : undefined,
      signal: api.signal,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { error: { status: 'FETCH_ERROR', message, serverMessage: null, code: null, fields: null, body: null } };
  }

  const text = await response.text();

  if (!response.ok) {
    if (response.status === 401 && args.on401 === 'returnNull') return { data: null };
    const body = parseErrorBody(text);
    return {
      error: {
        status: response.status,
        message: `${response.status}: ${text || response.statusText}`,
        serverMessage: body?.message ?? null,
        code: body?.code ?? null,
        fields: body?.fields ?? null,
        body,
      },
    };
  }

  if (!text) return { data: null };
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  if (!isJson) return { data: text };
  try {
    return { data: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { error: { status: 'PARSE_ERROR', message, serverMessage: null, code: null, fields: null, body: null } };
  }
}

export function isApiError(error: unknown): error is ApiError {
  return !!error && typeof error === 'object' && 'status' in error && 'message' in error;
}

/** Text for the user: the server's own message when it sent one, else the spec's "<status>: <body>". */
export function errorText(error: unknown): string {
  if (isApiError(error)) return error.serverMessage ?? error.message;
  if (error instanceof Error) return error.message;
  return 'Unexpected error';
}

/**
 * The message a failure toast or box shows: the server's own message, the spec's "<status>: <body>"
 * for an HTTP error without one, and null when no usable response arrived (the browser's raw
 * "Failed to fetch", an unreadable body): the caller then shows the spec's failure message for that call.
 */
export function failureMessage(error: unknown): string | null {
  if (isApiError(error)) return error.serverMessage ?? (typeof error.status === 'number' ? error.message : null);
  return null;
}
