'use strict';

const { baseUrl } = require('./lib/api');

/** API-key authentication: the key made on the Listing Ads dashboard (Lead Notifications → API Keys), tested with GET /api/v1/me. */
module.exports = {
  type: 'custom',
  fields: [
    {
      key: 'apiKey',
      label: 'API Key',
      type: 'password',
      required: true,
      helpText: 'Create one on your Listing Ads dashboard under **API Keys** (it starts with `la_`). Keep both scopes ticked: leads:read and hooks:write.',
    },
  ],
  test: async (z) => {
    const response = await z.request({ url: `${baseUrl()}/api/v1/me` });
    return response.data;
  },
  // The test's answer (GET /api/v1/me) is in bundle.inputData: the agent, and which key this connection uses.
  connectionLabel: (z, bundle) => `${bundle.inputData.name} (${bundle.inputData.apiKey.name})`,
};
