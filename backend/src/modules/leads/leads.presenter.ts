import { leadInterest, phoneLink, type LeadShown, type LeadShownListing } from '@app/contracts';
import type { Lead } from './lead.model';

/** "Lead as shown" (spec 001 §3): what the agent reads. The consent record and the request's details stay stored. */
export function presentLead(l: Lead, listing: LeadShownListing | undefined): LeadShown {
  return {
    id: l.id,
    name: l.name,
    email: l.email,
    phone: l.phone,
    phoneLink: phoneLink(l.phone),
    interest: leadInterest(l),
    message: l.message ?? '',
    createdAt: new Date(l.createdAt).toISOString(),
    listing: listing ?? { address: '', price: '', mlsId: '' },
    status: l.status === 'held' ? 'held' : 'received',
    holdReasons: l.status === 'held' ? (l.holdReasons ?? []) : [],
  };
}
