import { z } from 'zod';
import { ROOT_FIELD, fieldErrors, firstErrorMessage, validationErrorBody } from './errors.js';

const schema = z.strictObject({
  name: z.string().min(1, { error: 'Name is required' }).min(3, { error: 'Too short' }),
  nested: z.object({ list: z.array(z.number({ error: 'Not a number' })) }),
});

describe('fieldErrors', () => {
  it('keeps the first message per dotted path and expands unknown keys', () => {
    const r = schema.safeParse({ name: '', nested: { list: [1, 'x'] }, age: 30 });
    expect(r.success).toBe(false);
    expect(fieldErrors(r.error!)).toEqual({
      name: 'Name is required',
      'nested.list.1': 'Not a number',
      age: expect.any(String),
    });
  });
  it('puts whole-value issues under _root', () => {
    const r = z.object({ a: z.string() }).safeParse(42);
    expect(Object.keys(fieldErrors(r.error!))).toEqual([ROOT_FIELD]);
  });
  it('builds the 400 body', () => {
    const r = schema.safeParse({ name: 'ab', nested: { list: [] } });
    expect(validationErrorBody(r.error!)).toEqual({
      message: 'Too short',
      code: 'validation.invalid',
      fields: { name: 'Too short' },
    });
    expect(firstErrorMessage({ issues: [] })).toBe('Invalid request');
  });
});
