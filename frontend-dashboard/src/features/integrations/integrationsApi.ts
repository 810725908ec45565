import type { ApiKeyCreated, ApiKeyCreateInput, ApiKeyView, HookView, SmsView } from '@app/contracts';
import { api } from '../../store/api';

const agentPath = (agentId: string) => `/api/agents/${encodeURIComponent(agentId)}`;

/** API keys and the REST hooks they subscribed (agents and notifications modules), and text alerts. */
export const integrationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getApiKeys: build.query<ApiKeyView[], string>({
      query: (agentId) => `${agentPath(agentId)}/api-keys`,
      providesTags: (_r, _e, agentId) => [{ type: 'ApiKeys', id: agentId }],
    }),
    createApiKey: build.mutation<ApiKeyCreated, { agentId: string; body: ApiKeyCreateInput }>({
      query: ({ agentId, body }) => ({ url: `${agentPath(agentId)}/api-keys`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { agentId }) => [{ type: 'ApiKeys', id: agentId }],
    }),
    revokeApiKey: build.mutation<ApiKeyView, { agentId: string; keyId: number }>({
      query: ({ agentId, keyId }) => ({ url: `${agentPath(agentId)}/api-keys/${keyId}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { agentId }) => [{ type: 'ApiKeys', id: agentId }],
    }),
    getHooks: build.query<HookView[], string>({
      query: (agentId) => `${agentPath(agentId)}/hooks`,
      providesTags: (_r, _e, agentId) => [{ type: 'Hooks', id: agentId }],
    }),
    removeHook: build.mutation<void, { agentId: string; hookId: number }>({
      query: ({ agentId, hookId }) => ({ url: `${agentPath(agentId)}/hooks/${hookId}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { agentId }) => [{ type: 'Hooks', id: agentId }],
    }),
    getSms: build.query<SmsView, string>({
      query: (agentId) => `${agentPath(agentId)}/sms`,
      providesTags: (_r, _e, agentId) => [{ type: 'Sms', id: agentId }],
    }),
    setSmsNumber: build.mutation<SmsView, { agentId: string; phone: string }>({
      query: ({ agentId, phone }) => ({ url: `${agentPath(agentId)}/sms`, method: 'PUT', body: { phone, consent: true } }),
      invalidatesTags: (_r, _e, { agentId }) => [{ type: 'Sms', id: agentId }],
    }),
    verifySms: build.mutation<SmsView, { agentId: string; code: string }>({
      query: ({ agentId, code }) => ({ url: `${agentPath(agentId)}/sms/verify`, method: 'POST', body: { code } }),
      invalidatesTags: (_r, _e, { agentId }) => [{ type: 'Sms', id: agentId }],
    }),
    turnSmsOff: build.mutation<SmsView, { agentId: string }>({
      query: ({ agentId }) => ({ url: `${agentPath(agentId)}/sms`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { agentId }) => [{ type: 'Sms', id: agentId }],
    }),
  }),
});

export const {
  useGetApiKeysQuery,
  useCreateApiKeyMutation,
  useRevokeApiKeyMutation,
  useGetHooksQuery,
  useRemoveHookMutation,
  useGetSmsQuery,
  useSetSmsNumberMutation,
  useVerifySmsMutation,
  useTurnSmsOffMutation,
} = integrationsApi;
