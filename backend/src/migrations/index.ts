import type { Knex } from 'knex';
import * as m0 from './20261122120000_platform_create_sessions';
import * as m1 from './20261122120100_agents_create_agents';
import * as m2 from './20261122120200_listings_create_listings';
import * as m3 from './20261122120300_campaigns_create_campaigns';
import * as m4 from './20261122120400_payments_create_payments';
import * as m5 from './20261122120500_leads_create_leads';
import * as m6 from './20261122120600_notifications_create_deliveries';
import * as m7 from './20261122120700_uploads_create_uploads';
import * as m8 from './20261122130000_uploads_add_storage_version';
import * as m9 from './20261122130100_listings_widen_bathrooms';
import * as m10 from './20261123090000_campaigns_add_launch_lease';
import * as m11 from './20261123090100_campaigns_create_sandbox_ad_campaigns';
import * as campaignsCreateSandboxAdCreatives from './20261127030000_campaigns_create_sandbox_ad_creatives';
import * as agentsAddMlsEmail from './20261123100000_agents_add_mls_email';
import * as paymentsCreateLocalPaymentIntents from './20261123100100_payments_create_local_payment_intents';
import * as platformCreateRateLimits from './20261123190000_platform_create_rate_limits';
import * as leadsAddConsentAndIdempotency from './20261124080000_leads_add_consent_and_idempotency';
import * as listingsAddPromotedAt from './20261124080100_listings_add_promoted_at';
import * as notificationsCreateSettingsAndMessages from './20261124090000_notifications_create_settings_and_messages';
import * as campaignsAddAgentBrokerage from './20261124120000_campaigns_add_agent_brokerage';
import * as agentsCreateEmailVerifications from './20261124100000_agents_create_email_verifications';
import * as adminAddListIndexes from './20261124140000_admin_add_list_indexes';
import * as agentsAddCampaignStats from './20261125140000_agents_add_campaign_stats';
import * as campaignsCreateDailyMetrics from './20261125140100_campaigns_create_daily_metrics';
import * as platformRateLimitsUnlogged from './20261125150000_platform_rate_limits_unlogged';
import * as uploadsAddQuotaIdentity from './20261127020000_uploads_add_quota_identity';
import * as leadsAddReviewAndGuards from './20261127020100_leads_add_review_and_guards';
import * as leadsDropListingIndex from './20261127170300_leads_drop_listing_index';
import * as notificationsDropLeadAgentIndex from './20261127170400_notifications_drop_lead_agent_index';
import * as platformCreateMetricSnapshots from './20261127040000_platform_create_metric_snapshots';
import * as agentsCreateApiKeys from './20261127070000_agents_create_api_keys';
import * as notificationsCreateHooks from './20261127070100_notifications_create_hooks';
import * as notificationsAddHubspotCrm from './20261127070200_notifications_add_hubspot_crm';
import * as notificationsAddRealgeeksCrm from './20261127070300_notifications_add_realgeeks_crm';
import * as notificationsCreateSms from './20261127070400_notifications_create_sms';
import * as campaignsAddDeliverySync from './20261127060000_campaigns_add_delivery_sync';
import * as paymentsCreateCredits from './20261127060100_payments_create_credits';
import * as reportsCreateReports from './20261127060200_reports_create_reports';
import * as notificationsAddReportKinds from './20261127060300_notifications_add_report_kinds';
import * as listingPagesCreateViews from './20261127060400_listing_pages_create_views';
import * as agentsAddIdentity from './20261127010000_agents_add_identity';
import * as agentsMergeDuplicateMembers from './20261127010100_agents_merge_duplicate_members';
import * as campaignsAddCreatedByBrowser from './20261127010200_campaigns_add_created_by_browser';
import * as notificationsAddWaitingMessages from './20261127010300_notifications_add_waiting_messages';
import * as listingsDropPromotedAt from './20261127010400_listings_drop_promoted_at';
import * as notificationsUnionMessageKinds from './20261127090000_notifications_union_message_kinds';
import * as mlsCreateDemoFeed from './20261127080000_mls_create_demo_feed';
import * as mlsCreateFeedReplication from './20261127080100_mls_create_feed_replication';
import * as paymentsCreateSavedCards from './20261127080200_payments_create_saved_cards';
import * as campaignsAddSandboxPause from './20261127080300_campaigns_add_sandbox_pause';
import * as campaignsAddPausedStatus from './20261127080400_campaigns_add_paused_status';
import * as notificationsAddAutopilotKinds from './20261127080500_notifications_add_autopilot_kinds';
import * as autopilotCreateTables from './20261127080600_autopilot_create_tables';
import * as notificationsUnionAutopilotKinds from './20261127110000_notifications_union_autopilot_kinds';
import * as notificationsAddLoftyCrm from './20261127150000_notifications_add_lofty_crm';
import * as notificationsAddLiondeskCrm from './20261127160000_notifications_add_liondesk_crm';

/** Every migration, by name. A new migration file is added here too. */
export const migrations: Record<string, Knex.Migration> = {
  '20261122120000_platform_create_sessions': m0,
  '20261122120100_agents_create_agents': m1,
  '20261122120200_listings_create_listings': m2,
  '20261122120300_campaigns_create_campaigns': m3,
  '20261122120400_payments_create_payments': m4,
  '20261122120500_leads_create_leads': m5,
  '20261122120600_notifications_create_deliveries': m6,
  '20261122120700_uploads_create_uploads': m7,
  '20261122130000_uploads_add_storage_version': m8,
  '20261122130100_listings_widen_bathrooms': m9,
  '20261123090000_campaigns_add_launch_lease': m10,
  '20261123090100_campaigns_create_sandbox_ad_campaigns': m11,
  '20261123100000_agents_add_mls_email': agentsAddMlsEmail,
  '20261123100100_payments_create_local_payment_intents': paymentsCreateLocalPaymentIntents,
  '20261123190000_platform_create_rate_limits': platformCreateRateLimits,
  '20261124080000_leads_add_consent_and_idempotency': leadsAddConsentAndIdempotency,
  '20261124080100_listings_add_promoted_at': listingsAddPromotedAt,
  '20261124090000_notifications_create_settings_and_messages': notificationsCreateSettingsAndMessages,
  '20261124120000_campaigns_add_agent_brokerage': campaignsAddAgentBrokerage,
  '20261124100000_agents_create_email_verifications': agentsCreateEmailVerifications,
  '20261124140000_admin_add_list_indexes': adminAddListIndexes,
  '20261125140000_agents_add_campaign_stats': agentsAddCampaignStats,
  '20261125140100_campaigns_create_daily_metrics': campaignsCreateDailyMetrics,
  '20261125150000_platform_rate_limits_unlogged': platformRateLimitsUnlogged,
  '20261127020000_uploads_add_quota_identity': uploadsAddQuotaIdentity,
  '20261127020100_leads_add_review_and_guards': leadsAddReviewAndGuards,
  '20261127040000_platform_create_metric_snapshots': platformCreateMetricSnapshots,
  '20261127070000_agents_create_api_keys': agentsCreateApiKeys,
  '20261127070100_notifications_create_hooks': notificationsCreateHooks,
  '20261127070200_notifications_add_hubspot_crm': notificationsAddHubspotCrm,
  '20261127070300_notifications_add_realgeeks_crm': notificationsAddRealgeeksCrm,
  '20261127070400_notifications_create_sms': notificationsCreateSms,
  '20261127030000_campaigns_create_sandbox_ad_creatives': campaignsCreateSandboxAdCreatives,
  '20261127060000_campaigns_add_delivery_sync': campaignsAddDeliverySync,
  '20261127060100_payments_create_credits': paymentsCreateCredits,
  '20261127060200_reports_create_reports': reportsCreateReports,
  '20261127060300_notifications_add_report_kinds': notificationsAddReportKinds,
  '20261127060400_listing_pages_create_views': listingPagesCreateViews,
  '20261127010000_agents_add_identity': agentsAddIdentity,
  '20261127010100_agents_merge_duplicate_members': agentsMergeDuplicateMembers,
  '20261127010200_campaigns_add_created_by_browser': campaignsAddCreatedByBrowser,
  '20261127010300_notifications_add_waiting_messages': notificationsAddWaitingMessages,
  '20261127010400_listings_drop_promoted_at': listingsDropPromotedAt,
  '20261127090000_notifications_union_message_kinds': notificationsUnionMessageKinds,
  '20261127080000_mls_create_demo_feed': mlsCreateDemoFeed,
  '20261127080100_mls_create_feed_replication': mlsCreateFeedReplication,
  '20261127080200_payments_create_saved_cards': paymentsCreateSavedCards,
  '20261127080300_campaigns_add_sandbox_pause': campaignsAddSandboxPause,
  '20261127080400_campaigns_add_paused_status': campaignsAddPausedStatus,
  '20261127080500_notifications_add_autopilot_kinds': notificationsAddAutopilotKinds,
  '20261127080600_autopilot_create_tables': autopilotCreateTables,
  '20261127110000_notifications_union_autopilot_kinds': notificationsUnionAutopilotKinds,
  '20261127150000_notifications_add_lofty_crm': notificationsAddLoftyCrm,
  '20261127160000_notifications_add_liondesk_crm': notificationsAddLiondeskCrm,
  '20261127170300_leads_drop_listing_index': leadsDropListingIndex,
  '20261127170400_notifications_drop_lead_agent_index': notificationsDropLeadAgentIndex,
};
