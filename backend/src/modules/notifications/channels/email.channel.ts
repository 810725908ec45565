import { maskEmail, type LeadDelivery } from '@app/contracts';
import type { EmailMessage } from '../../../platform/email/mailer';
import type { AttemptOutcome, Channel } from './channel';
import { notConfigured } from './channel';
import {
  autopilotDeliveryStoppedEmail,
  autopilotPaymentProblemEmail,
  autopilotResumeOfferEmail,
  autopilotScheduledEmail,
  campaignLiveEmail,
  deliveryDeadEmail,
  digestEmail,
  endpointDisabledEmail,
  leadEmail,
} from '../emails/templates';
import { autopilotLinkMaker } from '../emails/autopilot-links';

/** Email to the agent's current address: nodemailer over SMTP, or the .eml outbox. */
export const emailChannel: Channel = {
  async deliver(message, ctx): Promise<AttemptOutcome> {
    const agent = await ctx.agent();
    if (!agent) return notConfigured('The agent no longer exists');
    if (!agent.email) return notConfigured('The agent has no email address');
    const to = agent.email;
    const p = message.payload;
    let email: EmailMessage;
    switch (message.kind) {
      case 'lead.created':
      case 'lead.test':
        email = leadEmail(ctx.config, to, (p as { data: LeadDelivery }).data);
        break;
      case 'lead.digest':
        email = digestEmail(ctx.config, to, agent.id, p.leads, p.date);
        break;
      case 'campaign.live':
        email = campaignLiveEmail(ctx.config, to, p);
        break;
      case 'endpoint.disabled':
        email = endpointDisabledEmail(ctx.config, to, agent.id, p);
        break;
      case 'delivery.dead':
        email = deliveryDeadEmail(ctx.config, to, agent.id, p);
        break;
      // Autopilot's one-tap links are signed now, at send time: no bearer link is stored with the message.
      case 'autopilot.scheduled':
        email = autopilotScheduledEmail(ctx.config, to, p, autopilotLinkMaker(ctx.config));
        break;
      case 'autopilot.card_needed':
      case 'autopilot.payment_failed':
      case 'autopilot.confirm_payment':
        email = autopilotPaymentProblemEmail(ctx.config, to, message.kind, p, autopilotLinkMaker(ctx.config));
        break;
      case 'autopilot.delivery_stopped':
        email = autopilotDeliveryStoppedEmail(ctx.config, to, p);
        break;
      case 'autopilot.resume_offer':
        email = autopilotResumeOfferEmail(ctx.config, to, p, autopilotLinkMaker(ctx.config));
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
