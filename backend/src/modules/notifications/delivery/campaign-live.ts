import type { Knex } from 'knex';
import type { Queue } from '../../../platform/jobs/queue';
import type { CampaignLiveSnapshot } from '../emails/templates';
import { createMessage } from './deliver-message';

export type { CampaignLiveSnapshot };

/**
 * Called by the campaigns module inside the transaction that moves a campaign to `active`: the go-live
 * email with the ad as it runs. Once per campaign, whatever retries happen (a unique key on
 * (campaign, kind) makes a second call a no-op).
 */
export async function notifyCampaignLive(deps: { queue: Pick<Queue, 'send'> }, trx: Knex.Transaction, campaign: CampaignLiveSnapshot): Promise<void> {
  await createMessage(deps.queue, trx, { agentId: campaign.agentId, campaignId: campaign.campaignId, kind: 'campaign.live', channel: 'email', payload: campaign });
}
