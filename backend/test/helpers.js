"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.TEST_ADMIN_PASSWORD = void 0;
exports.createTestDatabase = createTestDatabase;
exports.createTestContext = createTestContext;
const node_crypto_1 = __importDefault(require("node:crypto"));
const supertest_1 = __importDefault(require("supertest"));
const pg_1 = require("pg");
const config_1 = require("../src/platform/config");
const logger_1 = require("../src/platform/logger");
const knex_1 = require("../src/platform/db/knex");
const queue_1 = require("../src/platform/jobs/queue");
const jobs_1 = require("../src/jobs");
const app_1 = require("../src/app");
const constants_1 = require("./constants");
exports.TEST_ADMIN_PASSWORD = 'correct horse battery staple';
async function adminQuery(sql) {
    const client = new pg_1.Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
    await client.connect();
    try {
        await client.query(sql);
    }
    finally {
        await client.end();
    }
}
/** A fresh database, copied from the migrated template. */
async function createTestDatabase() {
    const name = `t_${process.env.JEST_WORKER_ID ?? 0}_${node_crypto_1.default.randomBytes(5).toString('hex')}`;
    await adminQuery(`create database ${name} template ${constants_1.TEMPLATE_DB}`);
    return {
        name,
        url: `${process.env.TEST_PG_URL_PREFIX}${name}`,
        drop: () => adminQuery(`drop database if exists ${name} with (force)`),
    };
}
async function createTestContext(opts = {}) {
    const database = await createTestDatabase();
    const config = (0, config_1.loadConfig)({
        NODE_ENV: 'test',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        DATABASE_URL: database.url,
        SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123',
        ADMIN_PASSWORD: exports.TEST_ADMIN_PASSWORD,
        OUTBOUND_ALLOW_LOOPBACK: 'true',
        ...opts.env,
    });
    const logger = (0, logger_1.createLogger)(config.LOG_LEVEL);
    const db = (0, knex_1.createDb)(database.url, { max: 5 });
    const queue = (0, queue_1.createQueue)({ connectionString: database.url, db, logger, config, jobs: opts.jobs ?? jobs_1.jobs, work: opts.work ?? false });
    await queue.start();
    const app = (0, app_1.createApp)({ config, db, logger, queue });
    const callback = app.callback();
    return {
        config,
        db,
        queue,
        request: (0, supertest_1.default)(callback),
        newSession: () => supertest_1.default.agent(callback),
        close: async () => {
            await queue.stop();
            await db.destroy();
            await database.drop();
        },
    };
}
//# sourceMappingURL=helpers.js.map