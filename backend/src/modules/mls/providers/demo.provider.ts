import type { Knex } from 'knex';
import type { Db } from '../../../platform/db/knex';
import type { Logger } from '../../../platform/logger';
import { createDemoODataServer, DEMO_ODATA_BASE, DEMO_SERVER_LIMITS, type DemoServerLimits } from '../demo/demo-odata-server';
import { DEMO_PHOTOS_PATH, seedDemoMls } from '../demo/demo-feed';
import type { MlsProvider } from './mls-provider';
import { createResoProvider } from './reso.provider';

export { DEMO_MLS_DIR, DEMO_PHOTOS_DIR, DEMO_PHOTOS_PATH, loadDemoDataset, type DemoDataset } from '../demo/demo-feed';

/**
 * The embedded default MLS: the RESO provider itself, talking to the demo MLS's Web API (demo/), which
 * answers from the demo tables in this process. Search, load and replication run the very code a real
 * MLS gets, queries and paging included; only the transport is a function call instead of a socket.
 * The bundled records are seeded before the first answer.
 */
export function createDemoMlsProvider(opts: { db: Db | Knex; logger?: Logger; limits?: DemoServerLimits; seed?: boolean }): MlsProvider {
  const server = createDemoODataServer(opts.db, opts.limits ?? DEMO_SERVER_LIMITS);
  const seed = opts.seed ?? true;
  return createResoProvider({
    name: 'demo',
    baseUrl: DEMO_ODATA_BASE,
    bearerToken: 'demo',
    logger: opts.logger,
    mapping: { localPhotoPrefix: DEMO_PHOTOS_PATH },
    maxSkip: (opts.limits ?? DEMO_SERVER_LIMITS).maxSkip,
    fetch: async (url, init) => {
      if (seed) await seedDemoMls(opts.db as Db);
      return server.fetch(url, init);
    },
  });
}
