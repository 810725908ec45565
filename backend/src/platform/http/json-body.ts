import type { Context, Next } from 'koa';

const isPlainJson = (body: unknown): body is object => {
  if (body === null || typeof body !== 'object') return false;
  if (Array.isArray(body)) return true;
  const proto = Object.getPrototypeOf(body);
  return proto === Object.prototype || proto === null;
};

/**
 * Serialise a JSON body once. Left as an object, Koa stringifies it to know its length (the compression
 * layer asks), the compression layer stringifies it again, and Koa once more when it sends it. Mounted
 * just inside the compression layer. Koa already set the JSON Content-Type when the object was assigned,
 * and keeps it for the string.
 */
export function serializeJsonOnce() {
  return async function jsonBodyOnce(ctx: Context, next: Next) {
    await next();
    if (isPlainJson(ctx.body)) ctx.body = JSON.stringify(ctx.body);
  };
}
