import type { LeadDelivery } from '@app/contracts';
import type { Config } from '../../../platform/config';

/** "Jamie Q. Buyer" → first "Jamie Q.", last "Buyer" (CRMs keep them apart; a single word is a first name). */
export function splitName(full: string): { firstName: string; lastName: string } {
  const parts = full.trim().split(/\s+/);
  if (parts.length === 1) return { firstName: parts[0], lastName: '' };
  return { firstName: parts.slice(0, -1).join(' '), lastName: parts[parts.length - 1] };
}

/** What every native CRM is told besides the buyer: the listing in words, its price, and the buyer's interests. */
export function crmLeadFacts(d: LeadDelivery): { address: string; price: string; interests: string[] } {
  const l = d.listing;
  const address = [l.address, l.city, [l.state, l.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const price = `$${Number(l.price).toLocaleString('en-US')}`;
  const interests = [d.lead.interestedInTour ? 'would like a tour' : null, d.lead.interestedInSimilar ? 'is interested in similar homes' : null].filter((s): s is string => !!s);
  return { address, price, interests };
}

/**
 * The lead in plain text, for a CRM's free-text field (a note or description): the listing with its MLS number,
 * price and link, the buyer's message, and the tour / similar-homes interest; `extra` lines are appended.
 */
export function crmLeadText(source: string, type: string, d: LeadDelivery, extra: string[] = []): string {
  const f = crmLeadFacts(d);
  return [
    `${type === 'lead.test' ? 'Test lead' : 'Lead'} from ${source} about ${f.address} (MLS ${d.listing.mlsId}, ${f.price}): ${d.listing.url}`,
    d.lead.message ? `Message: ${d.lead.message}` : null,
    f.interests.length ? `The buyer ${f.interests.join(' and ')}.` : null,
    ...extra,
  ]
    .filter(Boolean)
    .join('\n');
}

/** Where the leads come from, as CRMs show it: the site's domain without "www.". */
export function crmSourceName(config: Pick<Config, 'PUBLIC_URL'>): string {
  if (config.PUBLIC_URL) return new URL(config.PUBLIC_URL).hostname.replace(/^www\./, '');
  return 'Listing Ads';
}
