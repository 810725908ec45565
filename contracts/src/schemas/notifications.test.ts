import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import { notificationSettingsSchema, testWebhookSchema } from './notifications.js';

const errorsOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return fieldErrors(r.error);
};

describe('notification settings', () => {
  it('accepts a full form', () => {
    expect(
      notificationSettingsSchema.parse({
        emailNotifications: true,
        instantNotifications: false,
        webhookUrl: 'https://hooks.example.com/leads',
        webhookSecret: ' whsec_abc ',
        zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/1/abc/',
        crmType: 'followupboss',
        crmWebhookUrl: 'https://crm.example.com/in',
        crmApiKey: 'key-123',
      }),
    ).toEqual({
      emailNotifications: true,
      instantNotifications: false,
      webhookUrl: 'https://hooks.example.com/leads',
      webhookSecret: 'whsec_abc',
      zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/1/abc/',
      crmType: 'followupboss',
      crmWebhookUrl: 'https://crm.example.com/in',
      crmApiKey: 'key-123',
    });
  });
  it('clears URLs and CRM type given as "" and ignores untyped secrets', () => {
    const out = notificationSettingsSchema.parse({
      webhookUrl: '',
      zapierWebhookUrl: '',
      crmType: '',
      crmWebhookUrl: null,
      webhookSecret: '',
      crmApiKey: '   ',
    });
    expect(out).toEqual({
      webhookUrl: null,
      zapierWebhookUrl: null,
      crmType: null,
      crmWebhookUrl: null,
      webhookSecret: undefined,
      crmApiKey: undefined,
    });
  });
  it('rejects http URLs, unknown CRMs and non-boolean toggles', () => {
    expect(
      errorsOf(notificationSettingsSchema, {
        emailNotifications: 'on',
        webhookUrl: 'http://hooks.example.com/leads',
        zapierWebhookUrl: 'javascript:alert(1)',
        crmType: 'pipedrive',
        crmWebhookUrl: 'ftp://crm.example.com',
      }),
    ).toEqual({
      emailNotifications: 'emailNotifications must be true or false',
      webhookUrl: 'Webhook URL must be a valid HTTPS URL',
      zapierWebhookUrl: 'Zapier webhook URL must be a valid HTTPS URL',
      crmType: 'Please select a supported CRM',
      crmWebhookUrl: 'CRM webhook URL must be a valid HTTPS URL',
    });
  });
});

describe('test webhook', () => {
  it.each(['custom', 'zapier', 'crm'])('accepts %p', (webhookType) =>
    expect(testWebhookSchema.parse({ webhookType })).toEqual({ webhookType }),
  );
  it('rejects anything else', () => {
    expect(errorsOf(testWebhookSchema, { webhookType: 'email' })).toEqual({
      webhookType: 'Webhook type must be custom, zapier or crm',
    });
  });
});
