import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import { LEAD_FORM_DEFAULTS, LEAD_FORM_MISSING_TOAST, LEAD_SOURCE_DEFAULT, leadFormSchema } from './leads.js';

const errorsOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return fieldErrors(r.error);
};

describe('lead form', () => {
  it('exports the spec texts and the default source', () => {
    expect(LEAD_FORM_MISSING_TOAST).toEqual({
      title: 'Required fields missing',
      description: 'Please provide your name and email address',
    });
    expect(LEAD_SOURCE_DEFAULT).toBe('property_page');
  });
  it('requires name and email', () => {
    expect(errorsOf(leadFormSchema, LEAD_FORM_DEFAULTS)).toEqual({
      name: 'Name is required',
      email: 'Please enter a valid email address',
    });
  });
  it('defaults the flags to false and the message to ""', () => {
    expect(leadFormSchema.parse({ name: ' Bob ', email: 'bob@example.com' })).toEqual({
      name: 'Bob',
      email: 'bob@example.com',
      message: '',
      interestedInTour: false,
      interestedInSimilar: false,
    });
  });
  it('keeps the optional phone and flags', () => {
    expect(
      leadFormSchema.parse({
        name: 'Bob',
        email: 'bob@example.com',
        phone: '',
        message: 'Is it still available?',
        interestedInTour: true,
      }),
    ).toEqual({
      name: 'Bob',
      email: 'bob@example.com',
      phone: null,
      message: 'Is it still available?',
      interestedInTour: true,
      interestedInSimilar: false,
    });
  });
  it('rejects non-boolean flags and overlong messages', () => {
    expect(
      errorsOf(leadFormSchema, { name: 'Bob', email: 'bob@example.com', interestedInTour: 'yes', message: 'x'.repeat(5001) }),
    ).toEqual({
      message: 'Must be at most 5000 characters',
      interestedInTour: 'interestedInTour must be true or false',
    });
  });
});
