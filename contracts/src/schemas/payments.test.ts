import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import { TERMS_REQUIRED_TOAST, checkoutTermsSchema, createPaymentIntentSchema, paymentSuccessSchema } from './payments.js';

const errorsOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return fieldErrors(r.error);
};

describe('payments', () => {
  it('payment intent takes a numeric amount and a campaign id', () => {
    expect(createPaymentIntentSchema.parse({ amount: 399, campaignId: '12' })).toEqual({ amount: 399, campaignId: 12 });
    expect(errorsOf(createPaymentIntentSchema, { amount: '399', campaignId: 'abc' })).toEqual({
      amount: 'Amount must be a positive number',
      campaignId: 'Must be a positive whole number',
    });
    expect(errorsOf(createPaymentIntentSchema, { amount: 0, campaignId: 1 })).toEqual({
      amount: 'Amount must be a positive number',
    });
  });
  it('payment success takes a campaign id', () => {
    expect(paymentSuccessSchema.parse({ campaignId: 7 })).toEqual({ campaignId: 7 });
    expect(errorsOf(paymentSuccessSchema, {})).toEqual({ campaignId: 'Must be a positive whole number' });
  });
  it('terms must be ticked', () => {
    expect(TERMS_REQUIRED_TOAST).toEqual({
      title: 'Terms Required',
      description: 'Please agree to the Terms of Service and Privacy Policy to continue.',
    });
    expect(checkoutTermsSchema.parse({ acceptedTerms: true })).toEqual({ acceptedTerms: true });
    expect(errorsOf(checkoutTermsSchema, { acceptedTerms: false })).toEqual({
      acceptedTerms: 'Please agree to the Terms of Service and Privacy Policy to continue.',
    });
  });
});
