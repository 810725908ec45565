import type { HelpFollowUpBody, HelpRequestInput, HelpResponse } from '@app/contracts';
import { api } from '../../store/api';

export const helpApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * POST /api/ai-help: a first request (contracts' helpFirstRequestSchema) or a follow-up as contracts'
     * buildHelpFollowUp makes it. A mutation, since every call is a new answer (never cached).
     */
    askHelp: build.mutation<HelpResponse, HelpRequestInput | HelpFollowUpBody>({
      query: (body) => ({ url: '/api/ai-help', method: 'POST', body }),
    }),
  }),
});

export const { useAskHelpMutation } = helpApi;
