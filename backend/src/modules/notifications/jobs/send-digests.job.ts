import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job';
import { createMessage } from '../delivery/deliver-message';

/**
 * notifications.send-digests (daily, 14:00 UTC: morning across US time zones): agents with instant
 * notifications off get one email listing the leads since their last digest. Each lead is claimed by a
 * conditional UPDATE in the transaction that makes the email, so a job that runs twice sends one digest.
 */
export const sendDigestsJob = defineJob({
  name: 'notifications.send-digests',
  payload: z.object({}).passthrough(),
  options: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 600 },
  schedule: '0 14 * * *',
  async handler(_payload, ctx) {
    const agents = await ctx.db('notificationLeads').distinct('agentId').where({ digestDue: true }).whereNull('digestedAt');
    const date = new Date().toISOString().slice(0, 10);
    for (const { agentId } of agents as { agentId: number }[]) {
      await ctx.db.transaction(async (trx) => {
        const rows = (await trx('notificationLeads')
          .where({ agentId, digestDue: true })
          .whereNull('digestedAt')
          .update({ digestedAt: trx.fn.now() })
          .returning(['leadId', 'snapshot'])) as { leadId: number; snapshot: unknown }[];
        if (rows.length === 0) return;
        rows.sort((a, b) => a.leadId - b.leadId);
        await createMessage(ctx.queue, trx, { agentId, kind: 'lead.digest', channel: 'email', payload: { date, leads: rows.map((r) => r.snapshot) } });
      });
    }
    ctx.logger.info({ agents: agents.length }, 'lead digests made');
  },
});
