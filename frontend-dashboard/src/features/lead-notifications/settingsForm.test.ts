/// <reference types="jest" />
import { CRM_INTEGRATIONS } from '@app/contracts';
import { notificationSettings as saved } from '../../testing/notification-settings';
import { crmFieldsShown, fieldErrorsOf, formFromSettings, secretsEndedByUrlChange, settingsPayload, tabOfFirstError, testableTypes } from './settingsForm';

const integrations = [...CRM_INTEGRATIONS];
const owner = { canChangeIntegrations: true, integrations };

describe('settingsPayload: write-only secrets', () => {
  it('leaves the stored webhook secret and CRM key alone when nothing is typed', () => {
    const view = saved({ webhookUrl: 'https://example.com/hook', hasWebhookSecret: true, crmType: 'followupboss', hasCrmApiKey: true });
    const body = settingsPayload(formFromSettings(view), owner);
    expect(body).toEqual({
      emailNotifications: true,
      instantNotifications: true,
      webhookUrl: 'https://example.com/hook',
      zapierWebhookUrl: '',
      crmType: 'followupboss',
    });
    expect(body).not.toHaveProperty('webhookSecret');
    expect(body).not.toHaveProperty('crmApiKey');
  });

  it('sends a secret and a key once typed (trimmed)', () => {
    const form = { ...formFromSettings(saved({ crmType: 'custom' })), webhookSecret: '  whsec_abc  ', crmApiKey: 'key-1', crmWebhookUrl: 'https://crm.example.com/in' };
    expect(settingsPayload(form, owner)).toMatchObject({ webhookSecret: 'whsec_abc', crmApiKey: 'key-1', crmWebhookUrl: 'https://crm.example.com/in' });
  });

  it('removes a secret only on request, and a typed one wins over the removal', () => {
    const form = { ...formFromSettings(saved({ hasWebhookSecret: true, webhookUrl: 'https://example.com/h' })), clearWebhookSecret: true };
    expect(settingsPayload(form, owner)).toMatchObject({ clearWebhookSecret: true });
    const typed = settingsPayload({ ...form, webhookSecret: 'new-secret' }, owner);
    expect(typed).toMatchObject({ webhookSecret: 'new-secret' });
    expect(typed).not.toHaveProperty('clearWebhookSecret');
  });

  it('sends only the email toggles for an admin viewing as the agent: no URL, CRM, secret or removal', () => {
    const form = { ...formFromSettings(saved({ crmType: 'custom' })), webhookUrl: 'https://moved.example.com', webhookSecret: 's', crmApiKey: 'k', clearWebhookSecret: true, clearCrmApiKey: true, instantNotifications: false };
    expect(settingsPayload(form, { canChangeIntegrations: false, integrations })).toEqual({ emailNotifications: true, instantNotifications: false });
  });
});

describe('secretsEndedByUrlChange: a new URL ends the stored secret or key', () => {
  const view = saved({ webhookUrl: 'https://a.example.com/h', hasWebhookSecret: true, crmType: 'custom', crmWebhookUrl: 'https://crm.example.com/in/…', hasCrmApiKey: true });
  it('says so once the typed URL differs from the saved one', () => {
    const form = formFromSettings(view);
    expect(secretsEndedByUrlChange(view, form, integrations)).toEqual({ webhookSecret: false, crmApiKey: false });
    expect(secretsEndedByUrlChange(view, { ...form, webhookUrl: 'https://b.example.com/h', crmWebhookUrl: 'https://crm2.example.com/in' }, integrations)).toEqual({ webhookSecret: true, crmApiKey: true });
  });
  it('not for a URL being cleared, another CRM (its own key anyway) or nothing stored', () => {
    const form = formFromSettings(view);
    expect(secretsEndedByUrlChange(view, { ...form, webhookUrl: '' }, integrations).webhookSecret).toBe(false);
    expect(secretsEndedByUrlChange(view, { ...form, crmType: 'followupboss' }, integrations).crmApiKey).toBe(false);
    const bare = saved({ webhookUrl: 'https://a.example.com/h' });
    expect(secretsEndedByUrlChange(bare, { ...formFromSettings(bare), webhookUrl: 'https://b.example.com/h' }, integrations).webhookSecret).toBe(false);
  });

  it('sends no CRM URL or key without a CRM type ("" clears the CRM on the server)', () => {
    const form = { ...formFromSettings(saved()), crmWebhookUrl: 'https://left.over/x', crmApiKey: 'left-over' };
    const body = settingsPayload(form, owner);
    expect(body.crmType).toBe('');
    expect(body).not.toHaveProperty('crmWebhookUrl');
    expect(body).not.toHaveProperty('crmApiKey');
  });
});

describe('CRM fields', () => {
  it('appear only once a CRM type is chosen; Follow Up Boss has no URL field', () => {
    expect(crmFieldsShown({ crmType: '' }, integrations)).toEqual({ url: false, apiKey: false, connect: false });
    expect(crmFieldsShown({ crmType: 'followupboss' }, integrations)).toEqual({ url: false, apiKey: true, connect: false });
    expect(crmFieldsShown({ crmType: 'custom' }, integrations)).toEqual({ url: true, apiKey: true, connect: false });
    // The list failed to load (only logged): ask for the URL rather than hide it.
    expect(crmFieldsShown({ crmType: 'custom' }, undefined)).toEqual({ url: true, apiKey: true, connect: false });
  });
  it('LionDesk is connected through OAuth: a Connect button, neither URL nor key', () => {
    expect(crmFieldsShown({ crmType: 'liondesk' }, integrations)).toEqual({ url: false, apiKey: false, connect: true });
  });
});

describe('testableTypes: test buttons only with a saved URL', () => {
  it('offers no test without URLs', () => {
    const view = saved();
    expect(testableTypes(view, formFromSettings(view), integrations)).toEqual({ custom: false, zapier: false, crm: false });
  });

  it('offers each test once its URL (or CRM) is saved, and not while an unsaved edit is pending', () => {
    const view = saved({ webhookUrl: 'https://example.com/h', zapierWebhookUrl: 'https://hooks.zapier.com/hooks/…', crmType: 'followupboss' });
    const form = formFromSettings(view);
    expect(testableTypes(view, form, integrations)).toEqual({ custom: true, zapier: true, crm: true });
    expect(testableTypes(view, { ...form, webhookUrl: 'https://example.com/other' }, integrations).custom).toBe(false);
    expect(testableTypes(view, { ...form, crmType: 'custom' }, integrations).crm).toBe(false);
  });

  it('needs the URL of a CRM that takes one', () => {
    const view = saved({ crmType: 'custom', crmWebhookUrl: null });
    expect(testableTypes(view, formFromSettings(view), integrations).crm).toBe(false);
  });

  it('offers nothing for a URL typed but not saved', () => {
    const view = saved();
    expect(testableTypes(view, { ...formFromSettings(view), webhookUrl: 'https://example.com/new' }, integrations).custom).toBe(false);
  });
});

describe('server field messages', () => {
  it('keeps the 400 messages of known fields and finds their tab', () => {
    const error = {
      status: 400,
      message: '400: …',
      serverMessage: 'Webhook URL must be a valid HTTPS URL',
      code: 'request.invalid',
      fields: { zapierWebhookUrl: 'Zapier webhook URL must be a https://hooks.zapier.com/ catch hook URL', other: 'x' },
    };
    const fields = fieldErrorsOf(error);
    expect(fields).toEqual({ zapierWebhookUrl: 'Zapier webhook URL must be a https://hooks.zapier.com/ catch hook URL' });
    expect(tabOfFirstError(fields)).toBe('zapier');
    expect(fieldErrorsOf({ ...error, status: 403 })).toEqual({});
  });
});
