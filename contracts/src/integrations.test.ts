import { CRM_INTEGRATIONS, CRM_TYPES, WEBHOOK_TYPES, crmName, isCrmType } from './integrations.js';

describe('CRM integrations', () => {
  it('list one entry per CRM type, in the same order', () => {
    expect(CRM_INTEGRATIONS.map((c) => c.type)).toEqual([...CRM_TYPES]);
    expect(crmName('followupboss')).toBe('Follow Up Boss');
    expect(crmName('custom')).toBe('Custom CRM');
    expect(isCrmType('hubspot')).toBe(true);
    expect(isCrmType('HubSpot')).toBe(false);
  });
  it('test webhooks are custom, zapier and crm', () => {
    expect([...WEBHOOK_TYPES]).toEqual(['custom', 'zapier', 'crm']);
  });
});
