import type {
  CrmIntegration,
  DeliveryChannel,
  DeliveryPage,
  DeliveryReplay,
  DeliveryStatus,
  LionDeskConnectionView,
  NotificationSettingsInput,
  NotificationSettingsSaved,
  NotificationSettingsView,
  TestWebhookResult,
  WebhookType,
} from '@app/contracts';
import { api } from '../../store/api';

export interface DeliveriesArgs {
  agentId: string;
  page: number;
  pageSize?: number;
  channel?: DeliveryChannel;
  status?: DeliveryStatus;
}

const agentPath = (agentId: string) => `/api/agents/${encodeURIComponent(agentId)}`;

/**
 * The Lead Notifications card's calls (spec 001 §7) and the delivery log of the notifications module. Connecting
 * LionDesk is a page navigation to /api/agents/{id}/crm/liondesk/connect (OAuth goes through LionDesk's own page),
 * never a fetch; its status and Disconnect are calls here.
 */
export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNotificationSettings: build.query<NotificationSettingsView, string>({
      query: (agentId) => `${agentPath(agentId)}/notification-settings`,
      providesTags: (_result, _error, agentId) => [{ type: 'NotificationSettings', id: agentId }],
    }),
    updateNotificationSettings: build.mutation<NotificationSettingsSaved, { agentId: string; body: NotificationSettingsInput }>({
      query: ({ agentId, body }) => ({ url: `${agentPath(agentId)}/notification-settings`, method: 'PUT', body }),
      // The answer is the saved settings: put it in the cache rather than asking again.
      async onQueryStarted({ agentId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        const { generatedWebhookSecret: _shownOnce, ...view } = data;
        dispatch(notificationsApi.util.upsertQueryData('getNotificationSettings', agentId, view));
      },
    }),
    testWebhook: build.mutation<TestWebhookResult, { agentId: string; webhookType: WebhookType }>({
      query: ({ agentId, webhookType }) => ({ url: `${agentPath(agentId)}/test-webhook`, method: 'POST', body: { webhookType } }),
      // A test send is logged as a delivery, whether the receiver took it or not.
      invalidatesTags: (_result, _error, { agentId }) => [{ type: 'Deliveries', id: agentId }],
    }),
    getCrmIntegrations: build.query<CrmIntegration[], void>({
      query: () => '/api/crm-integrations',
    }),
    getLionDeskConnection: build.query<LionDeskConnectionView, string>({
      query: (agentId) => `${agentPath(agentId)}/crm/liondesk`,
      providesTags: (_result, _error, agentId) => [{ type: 'LionDesk', id: agentId }],
    }),
    disconnectLionDesk: build.mutation<void, string>({
      query: (agentId) => ({ url: `${agentPath(agentId)}/crm/liondesk`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, agentId) => [{ type: 'LionDesk', id: agentId }],
    }),
    getDeliveries: build.query<DeliveryPage, DeliveriesArgs>({
      query: ({ agentId, page, pageSize, channel, status }) => ({
        url: `${agentPath(agentId)}/deliveries`,
        params: { page, pageSize, channel, status },
      }),
      providesTags: (_result, _error, { agentId }) => [{ type: 'Deliveries', id: agentId }],
    }),
    replayDelivery: build.mutation<DeliveryReplay, { agentId: string; deliveryId: number }>({
      query: ({ agentId, deliveryId }) => ({ url: `${agentPath(agentId)}/deliveries/${deliveryId}/replay`, method: 'POST' }),
      invalidatesTags: (_result, _error, { agentId }) => [{ type: 'Deliveries', id: agentId }],
    }),
  }),
});

export const {
  useGetNotificationSettingsQuery,
  useUpdateNotificationSettingsMutation,
  useTestWebhookMutation,
  useGetCrmIntegrationsQuery,
  useGetLionDeskConnectionQuery,
  useDisconnectLionDeskMutation,
  useGetDeliveriesQuery,
  useReplayDeliveryMutation,
} = notificationsApi;
