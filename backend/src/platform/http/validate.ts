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

/**
 * Validate the request with `contracts` schemas before the handler runs (route.ts puts it in front of every
 * handler, with the schemas of the route's spec). Bad input is a 400 with field messages; the parsed values land
 * in `ctx.state.input`, which route() hands to the handler, typed.
 */
export function validate<S extends Schemas>(schemas: S) {
  return async function validateRequest(ctx: Context, next: Next) {
    const input: Record<string, unknown> = {};
    const fields: Record<string, string> = {};
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const raw = part === 'body' ? (ctx.request as { body?: unknown }).body ?? {} : part === 'params' ? ctx.params : ctx.query;
      const result = schema.safeParse(raw);
      if (result.success) input[part] = result.data;
      else Object.assign(fields, fieldErrors(result.error));
    }
    if (Object.keys(fields).length) throw validationFailed(fields);
    ctx.state.input = input;
    await next();
  };
}
