import { helpTitle } from './help.js';

describe('helpTitle', () => {
  it.each([
    ['custom-webhook', 'Custom Webhook Setup'],
    ['zapier-setup', 'Zapier Integration'],
    ['crm-integration', 'CRM Integration'],
    ['webhook-testing', 'Testing Webhooks'],
    ['general-help', 'Help Assistant'],
    ['toString', 'Help Assistant'],
    ['', 'Help Assistant'],
  ])('%p → %p', (topic, title) => expect(helpTitle(topic)).toBe(title));
  it('handles a missing topic', () => {
    expect(helpTitle(undefined)).toBe('Help Assistant');
  });
});
