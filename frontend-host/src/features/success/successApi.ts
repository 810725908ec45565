import type { AccountSetupPayload, AgentView, PaymentSuccessResponse, VerificationSent } from '@app/contracts';
import { api, CAMPAIGN_TAG } from '../../store/api';

const AGENT_TAG = 'Agent' as const;

/** GET /api/agents/:id as this browser sees it: the success screen reads `verified` (the agent has an owner) and the email. */
export type AccountAgent = AgentView;

export type PaymentSuccessResult = PaymentSuccessResponse;

export const successApi = api.enhanceEndpoints({ addTagTypes: [AGENT_TAG] }).injectEndpoints({
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
    /**
     * POST /api/agents/:id/account-setup with { email, password? }: the server answers 202 and emails a one-time
     * link; opening it verifies the address and signs that browser in (DESIGN §3). A password counts only when the
     * link is opened in this browser.
     */
    setUpAccount: build.mutation<VerificationSent, { agentId: number } & AccountSetupPayload>({
      query: ({ agentId, ...body }) => ({ url: `/api/agents/${agentId}/account-setup`, method: 'POST', body }),
    }),
  }),
});

export const { useReportPaymentSuccessMutation, useGetAccountAgentQuery, useLazyGetAccountAgentQuery, useSetUpAccountMutation } =
  successApi;
