import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import { adminLoginSchema, loginEmailSchema, loginSchema } from './auth.js';

const errorsOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return fieldErrors(r.error);
};

describe('login', () => {
  it('accepts an email and a 6+ character password', () => {
    expect(loginSchema.parse({ email: 'Jane@Example.com ', password: 'secret' })).toEqual({
      email: 'jane@example.com',
      password: 'secret',
    });
  });
  it('uses the spec messages', () => {
    expect(errorsOf(loginSchema, { email: 'jane', password: '12345' })).toEqual({
      email: 'Please enter a valid email address',
      password: 'Password must be at least 6 characters',
    });
    expect(errorsOf(loginEmailSchema, { email: '' })).toEqual({ email: 'Please enter a valid email address' });
  });
});

describe('admin login', () => {
  it('needs a non-empty password', () => {
    expect(adminLoginSchema.parse({ password: 'x' })).toEqual({ password: 'x' });
    expect(errorsOf(adminLoginSchema, { password: '' })).toEqual({ password: 'Password is required' });
    expect(errorsOf(adminLoginSchema, {})).toEqual({ password: 'Password is required' });
  });
});
