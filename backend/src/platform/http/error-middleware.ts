import type { Context, Next } from 'koa';
import { ZodError } from 'zod';
import { fieldErrors } from '@app/contracts';
import { AppError } from '../errors';

interface ErrorBody {
  message: string;
  code: string;
  fields?: Record<string, string>;
  [k: string]: unknown;
}

/** PostgreSQL error codes that mean "the request was wrong", not "the server broke". */
function fromDatabase(err: { code?: string; constraint?: string; detail?: string }): [number, ErrorBody] | null {
  switch (err.code) {
    case '23505':
      return [409, { message: 'This already exists', code: 'db.unique_violation' }];
    case '23503':
      return [409, { message: 'A related record does not exist', code: 'db.foreign_key_violation' }];
    case '23514':
    case '23502':
    case '22001':
    case '22003':
    case '22P02':
    case '22007':
    case '22008':
    case '22021': // invalid byte sequence (a NUL in text)
    case '22P05': // untranslatable character
    case '2201B': // invalid regular expression
    case '54001': // statement too complex
      return [400, { message: 'The request has a value the database cannot accept', code: 'db.invalid_value' }];
    default:
      return null;
  }
}

/** Objection wraps driver errors; the driver's own (with the SQLSTATE code) is `nativeError`. */
function databaseErrorOf(err: unknown): { code?: string; constraint?: string } {
  const e = err as { code?: unknown; nativeError?: { code?: unknown } };
  if (typeof e.code === 'string') return e as { code?: string };
  if (e.nativeError && typeof e.nativeError.code === 'string') return e.nativeError as { code?: string };
  return {};
}

/**
 * The error as it may be logged: a database error's `detail`, `where` and bound values can hold what a
 * user typed (an email in "Key (lower(email))=(…) already exists"), so they never reach a log line.
 */
export function loggableError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const e = err as Error & Record<string, unknown>;
  const out: Record<string, unknown> = { type: e.name, message: e.message, stack: e.stack };
  for (const key of ['code', 'status', 'type', 'constraint', 'table', 'column', 'routine', 'severity']) {
    if (e[key] !== undefined && typeof e[key] !== 'object') out[key] = e[key];
  }
  const native = e.nativeError as Record<string, unknown> | undefined;
  if (native && typeof native === 'object') out.nativeCode = native.code;
  // knex puts the SQL text (placeholders, no values) in the message; values stay out.
  return out;
}

/** The one place error bodies are written: `{ message, code, fields? }` (DESIGN §4). */
export function errorMiddleware() {
  return async function handleErrors(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api/')) {
        ctx.status = 404;
        ctx.body = { message: `No route for ${ctx.method} ${ctx.path}`, code: 'route.not_found' };
      }
    } catch (raw) {
      const err = raw as Error & { status?: number; statusCode?: number; type?: string; expose?: boolean; code?: string };
      let status = 500;
      let body: ErrorBody = { message: 'Something went wrong on our side. Please try again.', code: 'internal' };

      if (err instanceof AppError) {
        status = err.status;
        body = { message: err.message, code: err.code, ...(err.fields ? { fields: err.fields } : {}), ...(err.extra ?? {}) };
        if (status === 429 && typeof err.extra?.retryAfterSeconds === 'number') ctx.set('Retry-After', String(err.extra.retryAfterSeconds));
      } else if (err instanceof ZodError) {
        const fields = fieldErrors(err);
        status = 400;
        body = { message: Object.values(fields)[0] ?? 'Invalid request', code: 'request.invalid', fields };
      } else if (err.type === 'entity.too.large' || err.status === 413) {
        status = 413;
        body = { message: 'The request body is too large', code: 'request.too_large' };
      } else if (err.type === 'entity.parse.failed' || err instanceof SyntaxError) {
        status = 400;
        body = { message: 'The request body is not valid JSON', code: 'request.malformed_json' };
      } else if (err.type === 'encoding.unsupported' || err.status === 415) {
        status = 415;
        body = { message: 'Unsupported content encoding or type', code: 'request.unsupported_media_type' };
      } else if (fromDatabase(databaseErrorOf(err))) {
        [status, body] = fromDatabase(databaseErrorOf(err))!;
      } else if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
        // koa / http-errors raised by middleware (e.g. ctx.throw(400)).
        status = err.status;
        body = { message: err.expose ? err.message : 'Bad request', code: 'request.rejected' };
      }

      ctx.status = status;
      ctx.body = body;
      const log = ctx.state.log ?? console;
      if (status >= 500) log.error({ err: loggableError(err) }, 'request failed');
      else log.debug({ status, code: body.code }, 'request refused');
    }
  };
}
