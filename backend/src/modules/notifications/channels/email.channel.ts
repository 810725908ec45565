import { maskEmail, type LeadDelivery } from '@app/contracts';
import type { EmailMessage } from '../../../platform/email/mailer';
import type { AttemptOutcome, Channel } from './channel';
import { notConfigured, waitingForVerifiedAddress } from './channel';
import { campaignReportEmail } from '../emails/report-templates';
import { campaignLiveEmail, deliveryDeadEmail, digestEmail, endpointDisabledEmail, leadEmail, leadNoticeEmail } from '../emails/templates';

/**
 * What may go to an address nobody verified (DESIGN §3): to the email the MLS publishes for the member, the
 * content-free lead notice and the go-live email (the ad as the public sees it), each with a sign-in link that
 * verifies the identity. Everything else (leads, digests, delivery reports: buyers' data) only to a verified one.
 */
const FOR_MLS_ADDRESS = new Set(['lead.notice', 'campaign.live']);

/**
 * Email to the agent: nodemailer over SMTP, or the .eml outbox. Only to the address the agents module says may be
 * written to: an email with content for an address nobody verified waits (no attempt), and a lead for an MLS
 * identity nobody verified asks for a notice instead.
 */
export const emailChannel: Channel = {
  async deliver(message, ctx): Promise<AttemptOutcome> {
    const recipient = await ctx.recipient();
    if (!recipient) return notConfigured('The agent no longer exists');
    const allowed = recipient.kind === 'verified' || (recipient.kind === 'mls' && FOR_MLS_ADDRESS.has(message.kind));
    if (!allowed || !recipient.to) {
      return waitingForVerifiedAddress(recipient.kind === 'mls' && message.kind === 'lead.created');
    }
    const to = recipient.to;
    const dash = await ctx.signInLink(to);
    const p = message.payload;
    let email: EmailMessage;
    switch (message.kind) {
      case 'lead.created':
      case 'lead.test':
        email = leadEmail(ctx.config, to, (p as { data: LeadDelivery }).data, dash);
        break;
      case 'lead.digest':
        email = digestEmail(ctx.config, to, p.leads, p.date, dash);
        break;
      case 'lead.notice':
        email = leadNoticeEmail(ctx.config, to, p, dash);
        break;
      case 'campaign.live':
        email = campaignLiveEmail(ctx.config, to, p, dash);
        break;
      case 'endpoint.disabled':
        email = endpointDisabledEmail(ctx.config, to, p, dash);
        break;
      case 'delivery.dead':
        email = deliveryDeadEmail(ctx.config, to, p, dash);
        break;
      case 'report.mid_flight':
      case 'report.final':
        email = campaignReportEmail(ctx.config, to, p);
        break;
    }
    const target = maskEmail(to);
    try {
      const sent = await ctx.mailer.send(email);
      return { ok: true, target, statusCode: null, responseBody: `${sent.transport}: ${sent.messageId}`.slice(0, 1024), error: null, warning: null, retryAfterSeconds: null, gone: false, permanent: false };
    } catch (err) {
      return { ok: false, target, statusCode: null, responseBody: null, error: `email: ${(err as Error).message}`, warning: null, retryAfterSeconds: null, gone: false, permanent: false };
    }
  },
};
