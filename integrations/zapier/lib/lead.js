'use strict';

/**
 * One lead as Zap steps see it: a flat object with clear keys (nested objects would need a Formatter step).
 * The same shape from the live hook (perform) and from the sample (performList), keyed by the lead's id so
 * Zapier drops a lead it has seen.
 */
function flattenLead(d) {
  const lead = d.lead || {};
  const listing = d.listing || {};
  return {
    id: lead.id,
    agent_id: d.agentId,
    lead_name: lead.name,
    lead_email: lead.email,
    lead_phone: lead.phone || '',
    lead_message: lead.message || '',
    lead_source: lead.source,
    interested_in_tour: !!lead.interestedInTour,
    interested_in_similar: !!lead.interestedInSimilar,
    lead_created_at: lead.createdAt,
    listing_id: listing.id,
    listing_mls_id: listing.mlsId,
    listing_address: listing.address,
    listing_city: listing.city,
    listing_state: listing.state,
    listing_postal_code: listing.postalCode || '',
    listing_price: listing.price,
    listing_bedrooms: listing.bedrooms,
    listing_bathrooms: listing.bathrooms,
    listing_square_feet: listing.squareFeet,
    listing_image_url: listing.imageUrl || '',
    listing_url: listing.url,
  };
}

const outputFields = [
  { key: 'id', label: 'Lead ID', type: 'integer' },
  { key: 'lead_name', label: 'Buyer Name' },
  { key: 'lead_email', label: 'Buyer Email' },
  { key: 'lead_phone', label: 'Buyer Phone' },
  { key: 'lead_message', label: 'Message' },
  { key: 'interested_in_tour', label: 'Wants a Tour', type: 'boolean' },
  { key: 'interested_in_similar', label: 'Wants Similar Homes', type: 'boolean' },
  { key: 'lead_created_at', label: 'Sent At', type: 'datetime' },
  { key: 'listing_mls_id', label: 'Listing MLS ID' },
  { key: 'listing_address', label: 'Listing Address' },
  { key: 'listing_city', label: 'Listing City' },
  { key: 'listing_state', label: 'Listing State' },
  { key: 'listing_postal_code', label: 'Listing ZIP' },
  { key: 'listing_price', label: 'Listing Price' },
  { key: 'listing_url', label: 'Listing Page' },
];

module.exports = { flattenLead, outputFields };
