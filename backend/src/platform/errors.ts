/**
 * Errors with a stable code. One middleware turns these (and zod, body-parser and
 * database errors) into `{ message, code, fields? }` — no route writes an error body by hand.
 */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly fields?: Record<string, string>,
    public readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const badRequest = (code: string, message: string, fields?: Record<string, string>) =>
  new AppError(400, code, message, fields);
export const validationFailed = (fields: Record<string, string>, message = Object.values(fields)[0] ?? 'Invalid request') =>
  new AppError(400, 'request.invalid', message, fields);
export const unauthorized = (code = 'auth.required', message = 'Please log in to continue') => new AppError(401, code, message);
export const forbidden = (code = 'auth.forbidden', message = 'You do not have access to this resource') =>
  new AppError(403, code, message);
export const notFound = (entity: string, module = `${entity}s`) =>
  new AppError(404, `${module}.not_found`, `${cap(entity)} not found`);
export const conflict = (code: string, message: string, extra?: Record<string, unknown>) =>
  new AppError(409, code, message, undefined, extra);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, 'rate_limited', 'Too many requests. Please wait a moment and try again.', undefined, { retryAfterSeconds });
export const unavailable = (code: string, message: string) => new AppError(503, code, message);

/** Login As (DESIGN §3): an admin viewing as an agent cannot change the password, the email or notification secrets. */
export const impersonationRefused = () =>
  forbidden('auth.impersonation_read_only', 'An admin viewing as this agent cannot change the password, email or notification secrets.');
