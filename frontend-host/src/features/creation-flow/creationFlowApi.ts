import {
  AGENT_LISTINGS_PAGE_MAX,
  objectPathFromUploadUrl,
  type AgentCreateInput,
  type AgentListingsPage,
  type BrandingUpdateInput,
  type ListingCreateInput,
  type ListingSummary,
  type CampaignDraftInput,
  type TargetingPreviewInput,
  type AdCopyCheckResponse,
  type CampaignView,
  type MlsLoadResult,
  type TargetingPreviewResponse,
  type TemplateType,
} from '@app/contracts';
import { api, CAMPAIGN_TAG, type ApiError } from '../../store/api';
import { putFileWithProgress, type UploadHttpError } from './uploadFile';
import type { Agent, Listing, MlsAgentMatch } from './draft/wizardTypes';

export type { MlsLoadResult };

/**
 * Files waiting to be uploaded, by id: the mutation's argument stays a plain string (RTK Query
 * keeps arguments in the store, which must stay serializable), the File and its progress
 * listener stay here.
 */
const pendingUploads = new Map<string, { file: File; onProgress: (percent: number) => void }>();

export function registerUpload(id: string, file: File, onProgress: (percent: number) => void): void {
  pendingUploads.set(id, { file, onProgress });
}

/** A Fair Housing finding of POST /api/ad-copy/check: a phrase of the agent's text and what to do about it. */
export type FairHousingFinding = AdCopyCheckResponse['findings'][number];

/** PUT /api/agents/:id from the branding step (spec 000 §7; contracts' brandingUpdateSchema). */
export type BrandingBody = BrandingUpdateInput;

/** POST/PATCH /api/campaigns answer (the server computes impressions). */
export type SavedCampaign = CampaignView;

const LISTINGS = 'AgentListings' as const;

export const creationFlowApi = api.enhanceEndpoints({ addTagTypes: [LISTINGS] }).injectEndpoints({
  endpoints: (build) => ({
    searchAgent: build.mutation<MlsAgentMatch, { name: string; state: string }>({
      query: (body) => ({ url: '/api/mls/search-agent', method: 'POST', body }),
    }),
    createAgent: build.mutation<Agent, AgentCreateInput>({
      query: (body) => ({ url: '/api/agents', method: 'POST', body }),
    }),
    loadMls: build.mutation<MlsLoadResult, { agentId: number; mlsId: string }>({
      query: (body) => ({ url: '/api/mls/load', method: 'POST', body }),
      invalidatesTags: (result, _error, { agentId }) => (result ? [{ type: LISTINGS, id: agentId }] : []),
    }),
    /** Every page of the agent's listings (the loader shows them all), in the server's order. */
    getAgentListings: build.query<ListingSummary[], number>({
      async queryFn(agentId, _api, _extra, baseQuery) {
        const listings: ListingSummary[] = [];
        let cursor: string | null = null;
        do {
          const params: Record<string, string | number> = { limit: AGENT_LISTINGS_PAGE_MAX, ...(cursor ? { cursor } : {}) };
          const page = await baseQuery({ url: `/api/agents/${agentId}/listings`, params });
          if (page.error) return { error: page.error as ApiError };
          const body = page.data as AgentListingsPage;
          listings.push(...body.listings);
          cursor = body.nextCursor;
        } while (cursor);
        return { data: listings };
      },
      providesTags: (_result, _error, agentId) => [LISTINGS, { type: LISTINGS, id: agentId }],
    }),
    createListing: build.mutation<Listing, ListingCreateInput>({
      query: (body) => ({ url: '/api/listings', method: 'POST', body }),
      invalidatesTags: (result, _error, { agentId }) => (result ? [{ type: LISTINGS, id: agentId }] : []),
    }),
    /**
     * One listing photo: ask for a signed upload URL, PUT the file to it with progress, and answer
     * the stored path (/objects/uploads/{last URL segment}).
     */
    uploadListingPhoto: build.mutation<{ path: string }, { uploadId: string }>({
      async queryFn({ uploadId }, { signal }, _extra, baseQuery) {
        const pending = pendingUploads.get(uploadId);
        if (!pending) return { error: uploadError(0, 'The file to upload is no longer available') };
        try {
          const signed = await baseQuery({ url: '/api/objects/upload', method: 'POST' });
          if (signed.error) return { error: signed.error as ApiError };
          const uploadURL = (signed.data as { uploadURL?: unknown } | null)?.uploadURL;
          if (typeof uploadURL !== 'string' || !uploadURL) {
            return { error: uploadError(0, 'The server did not return an upload URL') };
          }
          await putFileWithProgress(uploadURL, pending.file, pending.onProgress, signal);
          return { data: { path: objectPathFromUploadUrl(uploadURL) } };
        } catch (cause) {
          if (cause instanceof DOMException && cause.name === 'AbortError') {
            return { error: uploadError(0, 'The upload was canceled') };
          }
          const http = cause as Partial<UploadHttpError>;
          return { error: uploadError(http.status ?? 0, http.message ?? String(cause)) };
        } finally {
          pendingUploads.delete(uploadId);
        }
      },
    }),
    optimizeAdCopy: build.mutation<{ optimizedCopy: string }, { listingId: number; templateType: TemplateType; refresh?: boolean }>({
      query: ({ listingId, ...body }) => ({ url: `/api/listings/${listingId}/optimize-ad-copy`, method: 'POST', body }),
    }),
    /** A pure check of a text, so a query: the same text is not sent twice. */
    checkAdCopy: build.query<{ findings: FairHousingFinding[] }, string>({
      query: (text) => ({ url: '/api/ad-copy/check', method: 'POST', body: { text } }),
      keepUnusedDataFor: 300,
    }),
    targetingPreview: build.query<TargetingPreviewResponse, TargetingPreviewInput>({
      query: (body) => ({ url: '/api/targeting/preview', method: 'POST', body }),
    }),
    updateAgentBranding: build.mutation<Agent, { id: number; body: BrandingBody }>({
      query: ({ id, body }) => ({ url: `/api/agents/${id}`, method: 'PUT', body }),
    }),
    createCampaignDraft: build.mutation<SavedCampaign, CampaignDraftInput>({
      query: (body) => ({ url: '/api/campaigns', method: 'POST', body }),
    }),
    updateCampaignDraft: build.mutation<SavedCampaign, { id: number; body: CampaignDraftInput }>({
      query: ({ id, body }) => ({ url: `/api/campaigns/${id}`, method: 'PATCH', body }),
      invalidatesTags: (_result, _error, { id }) => [{ type: CAMPAIGN_TAG, id }],
    }),
  }),
});

function uploadError(status: number, message: string): ApiError {
  return {
    status: status || 'FETCH_ERROR',
    message: status ? `${status}: ${message}` : message,
    serverMessage: message,
    code: null,
    fields: null,
    body: null,
  };
}

export const {
  useSearchAgentMutation,
  useCreateAgentMutation,
  useLoadMlsMutation,
  useGetAgentListingsQuery,
  useCreateListingMutation,
  useUploadListingPhotoMutation,
  useOptimizeAdCopyMutation,
  useCheckAdCopyQuery,
  useTargetingPreviewQuery,
  useUpdateAgentBrandingMutation,
  useCreateCampaignDraftMutation,
  useUpdateCampaignDraftMutation,
} = creationFlowApi;
