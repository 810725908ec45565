import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import { makeNotificationSettingsSchema, notificationSettingsSchema, testWebhookSchema } from './notifications.js';

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
        webhookSecret: ' whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw ',
        zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/1/abc/',
        crmType: 'followupboss',
        crmWebhookUrl: 'https://crm.example.com/in',
        crmApiKey: 'key-123',
      }),
    ).toEqual({
      emailNotifications: true,
      instantNotifications: false,
      webhookUrl: 'https://hooks.example.com/leads',
      webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
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
      zapierWebhookUrl: 'Zapier webhook URL must be a https://hooks.zapier.com/ catch hook URL',
      crmType: 'Please select a supported CRM',
      crmWebhookUrl: 'CRM webhook URL must be a valid HTTPS URL',
    });
  });
});

describe('webhook secret (L2)', () => {
  const secret = (key: Buffer) => `whsec_${key.toString('base64')}`;
  it('takes a whsec_ secret only as base64 of a 24 to 64 byte key, and any other text as it is', () => {
    for (const ok of [secret(Buffer.alloc(24, 1)), secret(Buffer.alloc(32, 2)), secret(Buffer.alloc(64, 3)), 'my own passphrase', 'whsec']) {
      expect(notificationSettingsSchema.parse({ webhookSecret: ok }).webhookSecret).toBe(ok);
    }
    const message = 'A whsec_ secret must be whsec_ followed by the base64 of a 24 to 64 byte key';
    for (const bad of ['whsec_', 'whsec_abc', 'whsec_not base64!!', `${secret(Buffer.alloc(32))}x`, secret(Buffer.alloc(23)), secret(Buffer.alloc(65)), secret(Buffer.alloc(32)).replace(/=+$/, '')]) {
      expect(errorsOf(notificationSettingsSchema, { webhookSecret: bad })).toEqual({ webhookSecret: message });
    }
  });
});

describe('notification settings URLs', () => {
  it('takes Zapier catch hooks only from hooks.zapier.com', () => {
    expect(errorsOf(notificationSettingsSchema, { zapierWebhookUrl: 'https://example.com/hooks/catch/1/a' })).toEqual({
      zapierWebhookUrl: 'Zapier webhook URL must be a https://hooks.zapier.com/ catch hook URL',
    });
    expect(errorsOf(notificationSettingsSchema, { zapierWebhookUrl: 'https://hooks.zapier.com.evil.com/x' })).toHaveProperty('zapierWebhookUrl');
  });
  it('takes plain http only when the server allows loopback (tests)', () => {
    const loose = makeNotificationSettingsSchema({ allowPlainHttp: true });
    expect(loose.parse({ webhookUrl: 'http://127.0.0.1:4000/in' }).webhookUrl).toBe('http://127.0.0.1:4000/in');
    expect(loose.parse({ zapierWebhookUrl: 'http://127.0.0.1:4000/z' }).zapierWebhookUrl).toBe('http://127.0.0.1:4000/z');
    expect(errorsOf(loose, { zapierWebhookUrl: 'http://example.com/z' })).toHaveProperty('zapierWebhookUrl');
    expect(errorsOf(notificationSettingsSchema, { webhookUrl: 'http://127.0.0.1:4000/in' })).toHaveProperty('webhookUrl');
  });
  it('takes the clear flags as booleans', () => {
    expect(notificationSettingsSchema.parse({ clearWebhookSecret: true, clearCrmApiKey: false })).toMatchObject({ clearWebhookSecret: true, clearCrmApiKey: false });
    expect(errorsOf(notificationSettingsSchema, { clearWebhookSecret: 'yes' })).toHaveProperty('clearWebhookSecret');
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
