// `@app/contracts/rules`: the zod-free half of contracts. The rules, constants, formats and texts a page may
// import without loading zod (the public listing page, the dashboard's cards). Every name here is also in the
// barrel (`@app/contracts`), which adds the request schemas (schemas/) and answer shapes (wire/), both zod.
// Only zod-free top-level modules belong here; lint:deps (zod-free-doors) keeps it so.
export * from './remotes.js';
export * from './states.js';
export * from './pricing.js';
export * from './format.js';
export * from './metrics.js';
export * from './ad-defaults.js';
export * from './targeting.js';
export * from './listing-rules.js';
export * from './routes.js';
export * from './phone.js';
export * from './uploads.js';
export * from './integrations.js';
export * from './api-access.js';
export * from './help.js';
export * from './errors.js';
export * from './cards.js';
export * from './autopilot.js';
export * from './public-listing.js';
export * from './credits.js';
export * from './campaign-statuses.js';
