import supertest from 'supertest';
import { type Config } from '../src/platform/config';
import { type Db } from '../src/platform/db/knex';
import { type Queue } from '../src/platform/jobs/queue';
import type { JobDefinition } from '../src/platform/jobs/job';
export declare const TEST_ADMIN_PASSWORD = "correct horse battery staple";
/** A fresh database, copied from the migrated template. */
export declare function createTestDatabase(): Promise<{
    url: string;
    name: string;
    drop: () => Promise<void>;
}>;
export interface TestContext {
    config: Config;
    db: Db;
    queue: Queue;
    /** One-off requests (no cookie jar). */
    request: ReturnType<typeof supertest>;
    /** A browser-like client that keeps its session cookie. */
    newSession: () => ReturnType<typeof supertest.agent>;
    close: () => Promise<void>;
}
export declare function createTestContext(opts?: {
    env?: Record<string, string>;
    work?: boolean;
    jobs?: JobDefinition<any>[];
}): Promise<TestContext>;
