import type { Context, Next } from 'koa';
import type { z } from 'zod';
import { fieldErrors } from '@app/contracts';
import { validationFailed } from '../errors';

type Schemas = { body?: z.ZodType; params?: z.ZodType; query?: z.ZodType };
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface Validated<S extends Schemas> {
  body: Out<S['body']>;
  params: Out<S['params']>;
  query: Out<S['query']>;
}

/** How many distinct path parameters (and queries) of one route a process remembers the parsed form of. */
const REMEMBERED = 500;
const REMEMBERED_MAX_LENGTH = 200;

type Flat = Record<string, string | number | boolean | null | undefined>;

/** A parsed value made only of plain values (a fresh shallow copy is then as good as a new parse), or null. */
function flat(value: unknown): Flat | null {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return null;
  for (const v of Object.values(value)) {
    if (v !== null && typeof v === 'object') return null;
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return null;
  }
  return value as Flat;
}

/**
 * A schema's successful parses of path parameters and queries, by their raw text: the same `/api/campaigns/7` or
 * `?limit=12` comes back on every read of a page, and zod's union, transform and pipe for an id cost more than
 * the rest of the route's checks. Only parses whose result holds plain values are kept (each request gets its
 * own copy); a failure is parsed anew, for its messages. The schemas are pure (no defaults from the clock), so a
 * remembered parse is the parse.
 */
class RememberedParses {
  private readonly parses = new Map<string, Flat>();

  constructor(private readonly schema: z.ZodType) {}

  parse(raw: unknown): { success: true; data: unknown } | { success: false; error: z.ZodError } {
    const key = keyOf(raw);
    const known = key === null ? undefined : this.parses.get(key);
    if (known) return { success: true, data: { ...known } };
    const result = this.schema.safeParse(raw);
    if (!result.success || key === null) return result;
    const parsed = flat(result.data);
    if (parsed) {
      if (this.parses.size >= REMEMBERED) this.parses.clear();
      this.parses.set(key, { ...parsed });
    }
    return result;
  }
}

/** The raw params or query as a key: only objects of short strings (a repeated query key, an array, is not remembered). */
function keyOf(raw: unknown): string | null {
  if (raw === null || typeof raw !== 'object') return null;
  let length = 0;
  for (const name in raw) {
    const value = (raw as Record<string, unknown>)[name];
    if (typeof value !== 'string') return null;
    length += name.length + value.length;
    if (length > REMEMBERED_MAX_LENGTH) return null;
  }
  return JSON.stringify(raw);
}

/**
 * Validate the request with `contracts` schemas before the handler runs (route.ts puts it in front of every
 * handler, with the schemas of the route's spec). Bad input is a 400 with field messages; the parsed values land
 * in `ctx.state.input`, which route() hands to the handler, typed.
 */
export function validate<S extends Schemas>(schemas: S) {
  const params = schemas.params ? new RememberedParses(schemas.params) : undefined;
  const query = schemas.query ? new RememberedParses(schemas.query) : undefined;
  return async function validateRequest(ctx: Context, next: Next) {
    const input: Record<string, unknown> = {};
    const fields: Record<string, string> = {};
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const result =
        part === 'body' ? schema.safeParse((ctx.request as { body?: unknown }).body ?? {}) : part === 'params' ? params!.parse(ctx.params) : query!.parse(ctx.query);
      if (result.success) input[part] = result.data;
      else Object.assign(fields, fieldErrors(result.error));
    }
    if (Object.keys(fields).length) throw validationFailed(fields);
    ctx.state.input = input;
    await next();
  };
}
