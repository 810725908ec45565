import type { AccountSetupPayload, AgentView, PaymentSuccessResponse } from '@app/contracts';
import { api } from '../../store/api';
import { CAMPAIGN_TAG } from '../checkout/checkoutApi';

const AGENT_TAG = 'Agent' as const;

/** GET /api/agents/:id: the fields the success screen reads (spec 001 §7: password presence is `hasPassword`). */
export type AccountAgent = AgentView;

export type PaymentSuccessResult = PaymentSuccessResponse;

export const successApi = api.enhanceEndpoints({ addTagTypes: [CAMPAIGN_TAG, AGENT_TAG] }).injectEndpoints({
  endpoints: (build) => ({
    /** POST /api/webhook/payment-success: the server verifies the payment and launches the campaign (idempotent). */
    reportPaymentSuccess: build.mutation<PaymentSuccessResult, { campaignId: number }>({
      query: (body) => ({ url: '/api/webhook/payment-success', method: 'POST', body }),
      invalidatesTags: (_result, _error, { campaignId }) => [{ type: CAMPAIGN_TAG, id: campaignId }],
    }),
    getAccountAgent: build.query<AccountAgent, number>({
      query: (id) => `/api/agents/${id}`,
      providesTags: (_result, _error, id) => [AGENT_TAG, { type: AGENT_TAG, id }],
    }),
    /** PUT /api/agents/:id with { email, password }: the account setup. */
    setUpAccount: build.mutation<AccountAgent, { agentId: number } & AccountSetupPayload>({
      query: ({ agentId, ...body }) => ({ url: `/api/agents/${agentId}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { agentId }) => [{ type: AGENT_TAG, id: agentId }],
    }),
  }),
});

export const { useReportPaymentSuccessMutation, useGetAccountAgentQuery, useLazyGetAccountAgentQuery, useSetUpAccountMutation } =
  successApi;
