import { CRM_INTEGRATIONS, CRM_TYPES, DELIVERY_RETRY_SCHEDULE_SECONDS, WEBHOOK_TYPES, crmName, isCrmType, maskEmail, maskUrl } from './integrations.js';

describe('CRM integrations', () => {
  it('list one entry per CRM type, in the same order', () => {
    expect(CRM_INTEGRATIONS.map((c) => c.type)).toEqual([...CRM_TYPES]);
    expect(crmName('followupboss')).toBe('Follow Up Boss');
    expect(crmName('custom')).toBe('Other CRM (JSON webhook)');
    expect(isCrmType('followupboss')).toBe(true);
    expect(isCrmType('hubspot')).toBe(true);
    expect(isCrmType('lofty')).toBe(true);
    expect(crmName('lofty')).toBe('Lofty');
    expect(isCrmType('liondesk')).toBe(true);
    expect(crmName('liondesk')).toBe('LionDesk');
    expect(CRM_INTEGRATIONS.find((c) => c.type === 'liondesk')).toMatchObject({ oauth: true, requiresApiKey: false, needsUrl: false });
    expect(isCrmType('kvcore')).toBe(false);
    expect(isCrmType('FollowUpBoss')).toBe(false);
  });
  it('test webhooks are custom, zapier and crm', () => {
    expect([...WEBHOOK_TYPES]).toEqual(['custom', 'zapier', 'crm']);
  });
});

describe('delivery rules', () => {
  it('retries on the Standard Webhooks schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h', () => {
    expect([...DELIVERY_RETRY_SCHEDULE_SECONDS]).toEqual([0, 5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600]);
  });
  it('masks credential URLs and email addresses', () => {
    expect(maskUrl('https://hooks.zapier.com/hooks/catch/123/abcdef/')).toBe('https://hooks.zapier.com/hooks/…');
    expect(maskUrl('https://crm.example.com/in?token=x')).toBe('https://crm.example.com/in/…');
    expect(maskUrl('https://crm.example.com/')).toBe('https://crm.example.com');
    expect(maskUrl(null)).toBeNull();
    expect(maskEmail('dana@example.com')).toBe('d…@example.com');
  });
});
