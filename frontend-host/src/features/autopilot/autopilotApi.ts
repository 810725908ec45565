import type { AutopilotLinkResult, AutopilotLinkView, CampaignWizard, CardSetup, SavedCardView } from '@app/contracts';
import { api } from '../../store/api';

/** Autopilot's pages in the host: the emailed one-tap links, saving a card, and a draft reopened in the wizard. */
export const autopilotApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAutopilotLink: build.query<AutopilotLinkView, string>({
      query: (token) => `/api/autopilot/links/${encodeURIComponent(token)}`,
    }),
    useAutopilotLink: build.mutation<AutopilotLinkResult, string>({
      query: (token) => ({ url: `/api/autopilot/links/${encodeURIComponent(token)}`, method: 'POST', body: {} }),
    }),
    getSavedCard: build.query<SavedCardView, number>({
      query: (agentId) => `/api/agents/${agentId}/saved-card`,
    }),
    startCardSetup: build.mutation<CardSetup, number>({
      query: (agentId) => ({ url: `/api/agents/${agentId}/saved-card/setup`, method: 'POST', body: {} }),
    }),
    confirmCardSetup: build.mutation<SavedCardView, { agentId: number; setupIntentId: string }>({
      query: ({ agentId, setupIntentId }) => ({ url: `/api/agents/${agentId}/saved-card/confirm`, method: 'POST', body: { setupIntentId } }),
    }),
    getCampaignForWizard: build.query<CampaignWizard, number>({
      query: (campaignId) => `/api/campaigns/${campaignId}/wizard`,
    }),
  }),
});

export const {
  useGetAutopilotLinkQuery,
  useUseAutopilotLinkMutation,
  useGetSavedCardQuery,
  useStartCardSetupMutation,
  useConfirmCardSetupMutation,
  useGetCampaignForWizardQuery,
} = autopilotApi;
