import { z } from 'zod';
import { CREDIT_METHODS } from '../credits.js';

/** PUT /api/agents/{id}/credits/preference. */
export const creditPreferenceSchema = z.object({ method: z.enum(CREDIT_METHODS, { error: 'Choose refund or account_credit' }) });
export type CreditPreferencePayload = z.infer<typeof creditPreferenceSchema>;
