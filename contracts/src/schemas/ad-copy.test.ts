import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import { adCopyCheckSchema, adCopyRequestSchema } from './ad-copy.js';

const errorsOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return fieldErrors(r.error);
};

describe('ad copy request', () => {
  it('takes a template type and an optional refresh flag', () => {
    expect(adCopyRequestSchema.parse({ templateType: 'just-listed' })).toEqual({ templateType: 'just-listed' });
    expect(adCopyRequestSchema.parse({ templateType: 'just-sold', refresh: true })).toEqual({
      templateType: 'just-sold',
      refresh: true,
    });
  });
  it('rejects other template types and non-boolean refresh', () => {
    expect(errorsOf(adCopyRequestSchema, { templateType: 'open-house', refresh: 'yes' })).toEqual({
      templateType: 'Template type must be just-listed or just-sold',
      refresh: 'refresh must be true or false',
    });
  });
});

describe('ad copy check', () => {
  it('needs non-blank text up to 5000 characters', () => {
    expect(adCopyCheckSchema.parse({ text: ' Great home ' })).toEqual({ text: 'Great home' });
    expect(errorsOf(adCopyCheckSchema, { text: '  ' })).toEqual({ text: 'Ad text is required' });
    expect(errorsOf(adCopyCheckSchema, { text: 'x'.repeat(5001) })).toEqual({ text: 'Must be at most 5000 characters' });
  });
});
