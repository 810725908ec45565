// `@app/contracts`: everything shared by the backend and the frontends. The zod-free rules and texts
// (rules.ts, also `@app/contracts/rules`), the request schemas (schemas/), the answer shapes (wire/) and
// the RTK Query base query (api-client.ts, also `@app/contracts/api-client`).
export * from './rules.js';
export * from './schemas/index.js';
export * from './api-client.js';
export * from './wire/index.js';
