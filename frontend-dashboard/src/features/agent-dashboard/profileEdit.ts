import { isApiError } from '../../store/api';
import type { ProfileEditInput } from '@app/contracts';

/**
 * The Edit Contact Information dialog's fields as typed (spec 001 §5), each a string, named as contracts'
 * profileEditSchema names them; sent as they are in the PUT /api/agents/{id} body (AgentUpdateInput).
 */
export type ProfileEdit = { [K in keyof Required<ProfileEditInput>]: string };

export type ProfileErrors = Partial<Record<keyof ProfileEdit, string>>;

/** Spec 001 §5: name at least 1 character, a valid email; phone, brokerage and MLS ID optional. */
export function validateProfile(form: ProfileEdit): ProfileErrors {
  const errors: ProfileErrors = {};
  if (!form.name.trim()) errors.name = 'Name is required';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) errors.email = 'Valid email is required';
  return errors;
}

/** The server's 400 field messages, on the dialog's fields (others are left to the toast). */
export function errorFields(err: unknown): ProfileErrors | null {
  if (!isApiError(err)) return null;
  const fields = err.fields;
  if (!fields) return null;
  const out: ProfileErrors = {};
  for (const key of ['name', 'email', 'phone', 'brokerage', 'mlsId'] as const) if (typeof fields[key] === 'string') out[key] = fields[key] as string;
  return Object.keys(out).length ? out : null;
}
