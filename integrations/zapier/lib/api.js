'use strict';

/**
 * Where the Listing Ads API lives. Set once per app version with
 * `zapier env:set <version> LISTING_ADS_URL=https://your-listing-ads.example`; the tests point it at a
 * product they start locally.
 */
function baseUrl() {
  const url = (process.env.LISTING_ADS_URL || '').trim().replace(/\/+$/, '');
  if (!url) throw new Error('LISTING_ADS_URL is not set for this app version');
  return url;
}

/** Every request carries the user's API key (made on the Listing Ads dashboard) as a Bearer token. */
function addApiKey(request, z, bundle) {
  if (bundle.authData && bundle.authData.apiKey) {
    request.headers = request.headers || {};
    request.headers.Authorization = `Bearer ${bundle.authData.apiKey}`;
  }
  return request;
}

/** The API's errors are JSON {message, code}: show the message to the user, and a bad key as an auth error. */
function explainErrors(response, z) {
  if (response.status < 400) return response;
  let message = `Listing Ads answered ${response.status}`;
  try {
    const body = JSON.parse(response.content);
    if (body && body.message) message = body.message;
  } catch (e) {
    /* not JSON */
  }
  if (response.status === 401) throw new z.errors.Error(message, 'AuthenticationError', 401);
  // Zapier retries a throttled call after the delay the API asked for.
  if (response.status === 429) throw new z.errors.ThrottledError(message, Number(response.getHeader('retry-after')) || 60);
  throw new z.errors.Error(message, 'ApiError', response.status);
}

module.exports = { baseUrl, addApiKey, explainErrors };
