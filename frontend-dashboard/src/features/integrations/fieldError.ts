import { isApiError } from '../../store/api';

/** The server's message for one field of a 400 (its `fields`), else null. */
export function fieldError(error: unknown, field: string): string | null {
  if (!isApiError(error) || !error.fields) return null;
  const value = error.fields[field];
  const message = Array.isArray(value) ? value[0] : value;
  return typeof message === 'string' ? message : null;
}
