'use strict';

const zapier = require('zapier-platform-core');
const authentication = require('./authentication');
const newLead = require('./triggers/new-lead');
const { addApiKey, explainErrors } = require('./lib/api');

/** Listing Ads on Zapier: API-key authentication and the New Lead trigger (REST hook). */
module.exports = {
  version: require('./package.json').version,
  platformVersion: zapier.version,
  authentication,
  beforeRequest: [addApiKey],
  afterResponse: [explainErrors],
  triggers: { [newLead.key]: newLead },
};
