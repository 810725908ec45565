import type { LeadDelivery } from '@app/contracts';
import { loadConfig } from '../../../platform/config';
import { leadEmail } from './templates';

/** The lead email's phone (issue 28: parsed once for both parts). */

const config = loadConfig({ PUBLIC_URL: 'https://homes.example.com' });
const delivery = (phone: string | null): LeadDelivery => ({
  lead: { id: 1, name: 'Jamie Buyer', email: 'jamie@buyer.example', phone, message: 'Is it still available?', source: 'web', interestedInTour: true, interestedInSimilar: false, createdAt: '2026-11-27T10:00:00.000Z' },
  listing: { id: 2, mlsId: 'T-1', address: '12 Palm Ave', city: 'Tampa', state: 'FL', postalCode: '33602', price: '450000', url: 'https://homes.example.com/listing/T-1' } as LeadDelivery['listing'],
  agentId: 3,
});
const dash = 'https://homes.example.com/verify-email?token=abc';

describe('leadEmail', () => {
  it('shows the phone formatted in both parts, and dials it (with the extension) from the HTML', () => {
    const email = leadEmail(config, 'agent@example.com', delivery('813-555-0101 ext. 7'), dash);
    expect(email.text).toContain('\nPhone: (813) 555-0101 ext. 7\n');
    expect(email.html).toContain('<a href="tel:+18135550101;ext=7">(813) 555-0101 ext. 7</a>');
  });

  it('shows text that is no number as typed, without a link', () => {
    const email = leadEmail(config, 'agent@example.com', delivery('ask for Dana'), dash);
    expect(email.text).toContain('\nPhone: ask for Dana\n');
    expect(email.html).toContain('<td style="padding:4px 8px">ask for Dana</td>');
  });

  it('shows no phone (none, or only blanks) as a dash in both parts', () => {
    for (const phone of [null, '  ']) {
      const email = leadEmail(config, 'agent@example.com', delivery(phone), dash);
      expect(email.text).toContain('\nPhone: -\n');
      expect(email.html).toContain('<td style="padding:4px 8px">—</td>');
    }
  });
});
