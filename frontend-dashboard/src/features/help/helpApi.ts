import type { HelpResponse } from '@app/contracts';
import { api } from '../../store/api';

/** A help request as sent (first: {topic, context}; follow-up: buildHelpFollowUp's body). */
export interface HelpRequestBody {
  topic: string;
  context: Record<string, unknown>;
}

export const helpApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST /api/ai-help: a mutation, since every call is a new answer (never cached). */
    askHelp: build.mutation<HelpResponse, HelpRequestBody>({
      query: (body) => ({ url: '/api/ai-help', method: 'POST', body }),
    }),
  }),
});

export const { useAskHelpMutation } = helpApi;
