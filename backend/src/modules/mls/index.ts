// The MLS module's only door: the router, and what the benchmark (and future jobs) may call.
export { mlsRouter, SEARCH_RATE_LIMIT } from './mls.routes';
export { importMlsListings, type ImportResult } from './mls.service';
export { mapResoProperty, mapResoProperties, type MappedBatch, type MapOutcome } from './reso-mapping';
export {
  createMlsProvider,
  createDemoMlsProvider,
  createResoProvider,
  MlsProviderError,
  type MlsProvider,
  type DemoDataset,
  type ResoProviderOptions,
} from './providers';
export { demoPhotoFile } from './demo-photos';
