import { objectPathFromUploadUrl } from '@app/contracts';
import { api, type ApiError } from '../../store/api';
import { putFileWithProgress, type UploadHttpError } from './uploadFile';
import type { Agent, Listing, MlsAgentMatch } from './wizardTypes';

/** POST /api/agents from the wizard (spec 000 §7): a found MLS agent, or manual entry. */
export type AgentCreateBody =
  | { name: string; state: string; email: string | null; mlsId: string; brokerage: null; phone: null }
  | { name: string; state: string; manualEntry: true; brokerage: null; phone: null; email: null };

export interface ListingCreateBody {
  agentId: number;
  address: string;
  city: string;
  state: string;
  price: string;
  bedrooms: number;
  bathrooms: string;
  squareFeet: number;
  status: 'active' | 'sold';
  imageUrl: string | null;
  images: string[];
  mlsId: string;
}

export interface MlsLoadResult {
  loaded: number;
  skipped: number;
}

/**
 * Files waiting to be uploaded, by id: the mutation's argument stays a plain string (RTK Query
 * keeps arguments in the store, which must stay serializable), the File and its progress
 * listener stay here.
 */
const pendingUploads = new Map<string, { file: File; onProgress: (percent: number) => void }>();

export function registerUpload(id: string, file: File, onProgress: (percent: number) => void): void {
  pendingUploads.set(id, { file, onProgress });
}

const LISTINGS = 'AgentListings' as const;

export const creationFlowApi = api.enhanceEndpoints({ addTagTypes: [LISTINGS] }).injectEndpoints({
  endpoints: (build) => ({
    searchAgent: build.mutation<MlsAgentMatch, { name: string; state: string }>({
      query: (body) => ({ url: '/api/mls/search-agent', method: 'POST', body }),
    }),
    createAgent: build.mutation<Agent, AgentCreateBody>({
      query: (body) => ({ url: '/api/agents', method: 'POST', body }),
    }),
    loadMls: build.mutation<MlsLoadResult, { agentId: number; mlsId: string }>({
      query: (body) => ({ url: '/api/mls/load', method: 'POST', body }),
      invalidatesTags: (result, _error, { agentId }) => (result ? [{ type: LISTINGS, id: agentId }] : []),
    }),
    getAgentListings: build.query<Listing[], number>({
      query: (agentId) => `/api/agents/${agentId}/listings`,
      providesTags: (_result, _error, agentId) => [LISTINGS, { type: LISTINGS, id: agentId }],
    }),
    createListing: build.mutation<Listing, ListingCreateBody>({
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
} = creationFlowApi;
