'use strict';

const { baseUrl } = require('../lib/api');
const { flattenLead, outputFields } = require('../lib/lead');

/**
 * New Lead: a REST hook. Turning a Zap on subscribes Zapier's URL with POST /api/v1/hooks; turning it off
 * unsubscribes with DELETE /api/v1/hooks/{id}. Each lead arrives as the signed lead.created event.
 */
const performSubscribe = async (z, bundle) => {
  const response = await z.request({
    url: `${baseUrl()}/api/v1/hooks`,
    method: 'POST',
    body: { targetUrl: bundle.targetUrl, event: 'lead.created' },
  });
  // Kept by Zapier as bundle.subscribeData for the unsubscribe.
  return response.data;
};

const performUnsubscribe = async (z, bundle) => {
  const response = await z.request({ url: `${baseUrl()}/api/v1/hooks/${encodeURIComponent(bundle.subscribeData.id)}`, method: 'DELETE' });
  return { id: bundle.subscribeData.id, status: response.status };
};

/** The hook's body is {type, timestamp, data}: one lead per event; other event types make no Zap run. */
const perform = async (z, bundle) => {
  const event = bundle.cleanedRequest || {};
  if (event.type !== 'lead.created' || !event.data) return [];
  return [flattenLead(event.data)];
};

/** Sample leads for setting up the Zap, newest first, in the hook's shape. */
const performList = async (z) => {
  const response = await z.request({ url: `${baseUrl()}/api/v1/leads`, params: { limit: 3 } });
  return response.data.leads.map(flattenLead);
};

module.exports = {
  key: 'new_lead',
  noun: 'Lead',
  display: {
    label: 'New Lead',
    description: 'Triggers when a buyer sends a lead from one of your listing pages.',
  },
  operation: {
    type: 'hook',
    performSubscribe,
    performUnsubscribe,
    perform,
    performList,
    sample: flattenLead({
      agentId: 7,
      lead: { id: 41, name: 'Jamie Buyer', email: 'jamie@example.com', phone: '(813) 555-0101', message: 'Is it still available?', source: 'property_page', interestedInTour: true, interestedInSimilar: false, createdAt: '2026-11-24T14:59:59.000Z' },
      listing: { id: 3, mlsId: 'MLS-123', address: '12 Palm Ave', city: 'Tampa', state: 'FL', postalCode: '33602', price: '450000', bedrooms: 3, bathrooms: '2.0', squareFeet: 1850, imageUrl: null, url: 'https://example.com/listing/MLS-123' },
    }),
    outputFields,
  },
};
