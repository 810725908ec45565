import type { DeliveryChannel } from '@app/contracts';
import type { Channel } from './channel';
import { emailChannel } from './email.channel';
import { webhookChannel } from './webhook.channel';
import { zapierChannel } from './zapier.channel';
import { crmChannel } from './crm.channel';
import { hookChannel } from './hook.channel';
import { smsChannel } from './sms.channel';

export const CHANNELS: Record<DeliveryChannel, Channel> = {
  email: emailChannel,
  webhook: webhookChannel,
  zapier: zapierChannel,
  crm: crmChannel,
  hook: hookChannel,
  sms: smsChannel,
};
