import type { CreatePaymentIntentPayload, CreatePaymentIntentResponse, LocalAuthenticateInput, LocalConfirmInput, LocalPaymentAnswer } from '@app/contracts';
import { api, CAMPAIGN_TAG } from '../../store/api';
import type { Campaign } from './campaignTypes';

/** POST /api/create-payment-intent's answer (the wire type in contracts). */
export type PaymentIntent = CreatePaymentIntentResponse;
export type PaymentProviderName = PaymentIntent['provider'];

/** POST /api/payments/local/confirm and /authenticate answer with the same shape. */
export type LocalPaymentResult = LocalPaymentAnswer;
export type LocalAuthenticateResult = LocalPaymentAnswer;

/**
 * The campaign read (shared with the success screen) and the payment calls. The endpoint names
 * are specific to payment so they cannot clash with endpoints other features inject into the one api.
 */
export const checkoutApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPaymentCampaign: build.query<Campaign, number>({
      query: (id) => `/api/campaigns/${id}`,
      providesTags: (_result, _error, id) => [CAMPAIGN_TAG, { type: CAMPAIGN_TAG, id }],
    }),
    createPaymentIntent: build.mutation<PaymentIntent, CreatePaymentIntentPayload>({
      query: (body) => ({ url: '/api/create-payment-intent', method: 'POST', body }),
    }),
    confirmLocalPayment: build.mutation<LocalPaymentResult, LocalConfirmInput>({
      query: (body) => ({ url: '/api/payments/local/confirm', method: 'POST', body }),
    }),
    authenticateLocalPayment: build.mutation<LocalAuthenticateResult, LocalAuthenticateInput>({
      query: (body) => ({ url: '/api/payments/local/authenticate', method: 'POST', body }),
    }),
  }),
});

export const {
  useGetPaymentCampaignQuery,
  useCreatePaymentIntentMutation,
  useConfirmLocalPaymentMutation,
  useAuthenticateLocalPaymentMutation,
} = checkoutApi;
