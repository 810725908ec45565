import type { Config } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import type { Logger } from '../../../platform/logger';
import type { MlsProvider } from './mls-provider';
import { createResoProvider } from './reso.provider';
import { createDemoMlsProvider } from './demo.provider';

/** The MLS named by configuration (config.providers.mls): the RESO Web API when it is configured, else the demo MLS. */
export function createMlsProvider(config: Config, db: Db, logger?: Logger): MlsProvider {
  if (config.providers.mls === 'reso') {
    return createResoProvider({
      baseUrl: config.RESO_BASE_URL!,
      tokenUrl: config.RESO_TOKEN_URL,
      clientId: config.RESO_CLIENT_ID,
      clientSecret: config.RESO_CLIENT_SECRET,
      bearerToken: config.RESO_BEARER_TOKEN,
      timeoutMs: config.OUTBOUND_TIMEOUT_MS,
      maxSkip: config.RESO_MAX_SKIP,
      requestsPerSecond: config.RESO_REQUESTS_PER_SECOND,
      logger,
    });
  }
  return createDemoMlsProvider({ db, logger });
}

export { MlsProviderError, type MlsProvider, type FeedCursor, type ChangesPage, type ChangesRequest } from './mls-provider';
export { createResoProvider, keysetFilter, KEYSET_ORDER, ODATA_DATETIME, type ResoProviderOptions } from './reso.provider';
export { createDemoMlsProvider, loadDemoDataset, DEMO_PHOTOS_DIR, type DemoDataset } from './demo.provider';
