import type { ReadCaches } from './cache/read-cache';
import type { Config } from './config';
import type { Db } from './db/knex';
import type { Logger } from './logger';
import type { Queue } from './jobs/queue';
import type { SafeFetch } from './outbound/http';

/** What every module's router and commands are built with. */
export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  queue: Queue;
  safeFetch: SafeFetch;
  /** Short-lived read caches shared by the routers of this app (emptied by this process's writes). */
  caches: ReadCaches;
}
