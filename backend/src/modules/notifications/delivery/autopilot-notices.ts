import type { Knex } from 'knex';
import type { Queue } from '../../../platform/jobs/queue';
import type { AutopilotAdSnapshot, AutopilotDeliveryStopped, AutopilotPaymentProblem, AutopilotResumeOffer } from '../emails/templates';
import { createMessage } from './deliver-message';

export { AUTOPILOT_LINK_PURPOSE } from '../emails/autopilot-links';

export type { AutopilotAdSnapshot, AutopilotDeliveryStopped, AutopilotPaymentProblem, AutopilotResumeOffer };

/** One of autopilot's emails to its agent. */
export type AutopilotNotice =
  | { kind: 'autopilot.scheduled'; ad: AutopilotAdSnapshot }
  | { kind: 'autopilot.card_needed' | 'autopilot.payment_failed' | 'autopilot.confirm_payment'; problem: AutopilotPaymentProblem }
  | { kind: 'autopilot.delivery_stopped'; stopped: AutopilotDeliveryStopped }
  | { kind: 'autopilot.resume_offer'; offer: AutopilotResumeOffer };

/**
 * Called by the autopilot module inside the transaction that changes its run: the email goes through the
 * same path as every agent email (a message, its delivery job, the agent's address when it is sent). The
 * scheduled email is once per campaign (the messages' unique campaign + kind); the others are once per run,
 * which autopilot's own status transition guarantees.
 */
export async function notifyAutopilot(deps: { queue: Pick<Queue, 'send'> }, trx: Knex.Transaction, notice: AutopilotNotice): Promise<void> {
  switch (notice.kind) {
    case 'autopilot.scheduled':
      await createMessage(deps.queue, trx, { agentId: notice.ad.agentId, campaignId: notice.ad.campaignId, kind: notice.kind, channel: 'email', payload: notice.ad });
      return;
    case 'autopilot.card_needed':
    case 'autopilot.payment_failed':
    case 'autopilot.confirm_payment':
      await createMessage(deps.queue, trx, { agentId: notice.problem.agentId, kind: notice.kind, channel: 'email', payload: notice.problem });
      return;
    case 'autopilot.delivery_stopped':
      await createMessage(deps.queue, trx, { agentId: notice.stopped.agentId, kind: notice.kind, channel: 'email', payload: notice.stopped });
      return;
    case 'autopilot.resume_offer':
      await createMessage(deps.queue, trx, { agentId: notice.offer.agentId, kind: notice.kind, channel: 'email', payload: notice.offer });
      return;
  }
}
