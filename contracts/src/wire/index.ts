export * from './common.js';
export * from './agents.js';
export * from './listings.js';
export * from './campaigns.js';
export * from './payments.js';
export * from './uploads.js';
export * from './platform.js';
export * from './webhooks.js';
