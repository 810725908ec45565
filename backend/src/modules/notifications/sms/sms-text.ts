import type { LeadDelivery } from '@app/contracts';

/** A text stays within two SMS segments: names and addresses are cut to fit. */
const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s);

/**
 * The text for the leads of one minute: the buyer's name, the listing, and a link to the dashboard. Never
 * the buyer's email or phone: a text crosses carriers and sits on a lock screen.
 */
export function leadAlertText(leads: readonly LeadDelivery[], dashboardUrl: string): string {
  const end = `Reply STOP to opt out.`;
  if (leads.length === 1) {
    const [d] = leads;
    const wants = [d.lead.interestedInTour ? 'wants a tour' : null, d.lead.interestedInSimilar ? 'wants similar homes' : null].filter(Boolean).join(', ');
    return `Listing Ads: new lead from ${cut(d.lead.name, 40)} about ${cut(`${d.listing.address}, ${d.listing.city}`, 60)}${wants ? ` (${wants})` : ''}. See it: ${dashboardUrl} ${end}`;
  }
  const shown = leads.slice(0, 2).map((d) => `${cut(d.lead.name, 30)} (${cut(d.listing.address, 30)})`);
  const more = leads.length - shown.length;
  const list = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(' and ');
  return `Listing Ads: ${leads.length} new leads: ${list}. See them: ${dashboardUrl} ${end}`;
}

/** The verification text: the code, how long it lasts, who sent it. */
export const verificationText = (code: string, minutes: number) => `Listing Ads: your verification code is ${code}. It expires in ${minutes} minutes. If you did not ask for it, ignore this text.`;

/** A number shown in logs: the last four digits only. */
export const maskPhone = (e164: string) => `…${e164.slice(-4)}`;
