#!/usr/bin/env node
// Ops CLI: `npm run ops -- jobs list | jobs failed [queue] | jobs retry <queue> <id> | jobs redrive <queue>`
//          `npm run ops -- deliveries list [agentId] | deliveries failed [agentId] | deliveries replay <deliveryId>`
//          `npm run ops -- mls poll | mls events [agentMlsId] | mls demo <change> --agent <agentMlsId> [--listing <mlsId>]`
//          `npm run ops -- autopilot list [agentId] | autopilot run-due | autopilot skip <runId>`
// Connects to DATABASE_URL, or to the embedded database of a running `npm start` (credentials in DATA_DIR).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = path.join(root, 'backend', 'dist');

const USAGE = `usage: npm run ops -- jobs <command>
  jobs list                 every queue with its job counts by state
  jobs failed [queue]       failed and dead-lettered jobs, newest first, with their last error
  jobs retry <queue> <id>   run a failed job again with fresh retries
  jobs redrive <queue>      move every job in <queue>'s dead-letter queue back into <queue>
  deliveries list [agentId]       lead delivery attempts, newest first (50)
  deliveries failed [agentId]     dead and disabled deliveries, newest first (50)
  deliveries replay <deliveryId>  send that delivery again now, with the agent's current settings

  campaigns failed          campaigns whose launch failed, newest first, with the error
  campaigns relaunch <id>   launch a launch_failed campaign again (launch_failed → paid + a campaigns.launch job)

  mls poll                  poll the MLS feed now (whether due or not; waits for no poll another process runs)
  mls events [agentMlsId]   the newest listing change events (50)
  mls demo <change> --agent <agentMlsId> [--listing <mlsId>]
                            change the demo MLS as an MLS would; <change> is one of
                            new-listing, price-drop, pending, sold, withdrawn, back-on-market

  autopilot list [agentId]  autopilot's newest runs: drafts, launches, pauses, with their status and reason
  autopilot run-due         launch the drafts whose launch time has come, retry or expire the waiting ones (what the
                            minute's sweep does)
  autopilot skip <runId>    skip a scheduled draft: it never launches and nothing is charged

  credits list              credits for under-delivery, newest first (50): refunds and account credit
  credits settle <campaignId>  stop a running campaign at the ad platform and settle it now (or settle an ended one
                            without waiting): the credit for the part not delivered, the final report, its email`;

function fail(msg) {
  console.error(msg);
  process.exit(2);
}

function connectionString() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const dataDir = process.env.DATA_DIR ?? path.join(root, '.data');
  const creds = path.join(dataDir, 'pg-credentials.json');
  if (!fs.existsSync(creds)) fail(`No DATABASE_URL and no embedded database in ${dataDir}: start the product first (npm start).`);
  const { password } = JSON.parse(fs.readFileSync(creds, 'utf8'));
  const port = process.env.EMBEDDED_PG_PORT ?? '54329';
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/listing_ads`;
}

const table = (rows) => (rows.length ? console.table(rows) : console.log('(none)'));

/** A refusal the command expects (`isRefusal(err)`): its message and exit code 1; any other error is thrown on. */
async function orRefused(work, isRefusal = () => true) {
  try {
    return await work();
  } catch (err) {
    if (!isRefusal(err)) throw err;
    console.error(err.message ?? String(err));
    process.exitCode = 1;
  }
}

/** An AppError of the backend (not found, wrong state, …), not a failure. */
const isAppError = (err) => !!(err && err.code && err.status);

/** A plain pg-boss client (no supervisor, no schedules, no migration: the running product owns those). */
async function startBoss(url) {
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: url, supervise: false, schedule: false, migrate: false });
  boss.on('error', (e) => console.error(e.message));
  await boss.start();
  return boss;
}

/**
 * What every command does around its work: the backend must be built (`built`: a compiled file under
 * backend/dist the command loads), the database (DATABASE_URL, or the running product's) must answer, and
 * whatever the work opened is closed afterwards, whatever happens. The work gets:
 * - `db` (`max` connections; behind a transaction pooler, DATABASE_POOLER=transaction, no statement is
 *   prepared by name) and its `url`;
 * - `boss()`: a pg-boss client, started on first use;
 * - `publisher()`: a pg-boss publisher for commands that announce events or send jobs in their own transactions;
 * - `closeAfter(fn)`: run `fn` when the work is done (before the database closes).
 */
async function withOps(built, { max = 2 } = {}, work) {
  if (!fs.existsSync(path.join(dist, built))) fail('The backend is not built: run `npm run build` first.');
  const { createDb } = require(path.join(dist, 'platform', 'db', 'knex.js'));
  const url = connectionString();
  const db = createDb(url, { max, pooler: process.env.DATABASE_POOLER === 'transaction' ? 'transaction' : 'none' });
  const closers = [];
  const closeAfter = (fn) => closers.push(fn);
  let boss;
  const ops = {
    db,
    url,
    closeAfter,
    boss: async () => {
      if (!boss) {
        boss = await startBoss(url);
        closeAfter(() => boss.stop({ graceful: false, close: true }));
      }
      return boss;
    },
    publisher: async () => {
      const { bossDbFor } = require(path.join(dist, 'platform', 'jobs', 'queue.js'));
      const b = await ops.boss();
      const on = async (o) => (o.trx ? { db: await bossDbFor(o.trx) } : {});
      return {
        publish: async (event, payload, o = {}) => b.publish(event.name, event.payload.parse(payload), await on(o)),
        send: async (def, payload, o = {}) =>
          b.send(def.name, def.payload.parse(payload), { ...(await on(o)), ...(o.startAfter ? { startAfter: o.startAfter } : {}), ...(o.singletonKey ? { singletonKey: o.singletonKey } : {}) }),
        sendMany: async (def, payloads, o = {}) => (await b.insert(def.name, payloads.map((p) => ({ data: def.payload.parse(p) })), { returnId: true, ...(await on(o)) })) ?? [],
      };
    },
  };
  try {
    await db.raw('select 1').catch(() => fail('Cannot reach the database: is the product running (npm start), or DATABASE_URL right?'));
    return await work(ops);
  } finally {
    for (const close of closers.reverse()) await close();
    await db.destroy();
  }
}

async function main() {
  const [area, cmd, ...args] = process.argv.slice(2);
  if (!['jobs', 'deliveries', 'campaigns', 'mls', 'autopilot', 'credits'].includes(area) || !cmd) fail(USAGE);
  if (area === 'autopilot') return autopilot(cmd, args);
  if (area === 'deliveries') return deliveries(cmd, args);
  if (area === 'mls') return mls(cmd, args);
  if (area === 'credits') return credits(cmd, args);
  if (area === 'campaigns') return campaigns(cmd, args);
  return jobs(cmd, args);
}

async function campaigns(cmd, args) {
  await withOps(path.join('modules', 'campaigns', 'ops.js'), {}, async ({ db, boss }) => {
    const campaigns = require(path.join(dist, 'modules', 'campaigns', 'ops.js'));
    if (cmd === 'failed') {
      table((await campaigns.listFailedLaunches({ db })).map((l) => ({ ...l, failedAt: l.failedAt.toISOString(), error: (l.error ?? '').slice(0, 80) })));
    } else if (cmd === 'relaunch') {
      const id = Number(args[0]);
      if (args.length !== 1 || !Number.isInteger(id) || id < 1) fail(USAGE);
      // Refused: not found, or not launch_failed.
      await orRefused(async () => {
        const res = await campaigns.relaunchCampaign({ db, boss: await boss() }, id, 'relaunched by ops CLI');
        table([{ campaign: res.campaignId, status: 'paid', job: res.jobId }]);
      });
    } else fail(USAGE);
  });
}

async function jobs(cmd, args) {
  await withOps(path.join('platform', 'jobs', 'ops.js'), {}, async ({ db, boss }) => {
    const ops = require(path.join(dist, 'platform', 'jobs', 'ops.js'));
    const { deadLetterName } = require(path.join(dist, 'platform', 'jobs', 'queue.js'));
    switch (cmd) {
      case 'list':
        table(await ops.listQueues(db));
        break;
      case 'failed':
        table(
          (await ops.listFailed(db, { queue: args[0] })).map((j) => ({
            id: j.id,
            queue: j.queue,
            from: j.sourceQueue ?? '',
            retries: j.retryCount,
            at: (j.completedOn ?? j.createdOn).toISOString(),
            error: (j.error ?? '').slice(0, 80),
          })),
        );
        break;
      case 'retry': {
        if (args.length !== 2) fail(USAGE);
        const ok = await ops.retryJob(await boss(), args[0], args[1]);
        console.log(ok ? `job ${args[1]} is queued again` : `no failed job ${args[1]} in ${args[0]}`);
        break;
      }
      case 'redrive': {
        if (args.length !== 1) fail(USAGE);
        const { moved } = await ops.redrive(db, await boss(), deadLetterName(args[0]));
        console.log(`${moved} job(s) moved from ${deadLetterName(args[0])} back to ${args[0]}`);
        break;
      }
      default:
        fail(USAGE);
    }
  });
}

async function deliveries(cmd, args) {
  await withOps(path.join('modules', 'notifications', 'index.js'), {}, async ({ db, publisher }) => {
    const notifications = require(path.join(dist, 'modules', 'notifications', 'index.js'));
    const agentId = args[0] ? Number(args[0]) : null;
    const show = (page) =>
      table(
        page.items.map((d) => ({
          id: d.id,
          at: d.createdAt,
          kind: d.kind,
          channel: d.channel,
          lead: d.leadId ?? '',
          attempt: d.attempt,
          status: d.status,
          code: d.responseCode ?? '',
          target: d.target ?? '',
          error: (d.error ?? d.warning ?? '').slice(0, 60),
          next: d.nextAttemptAt ?? '',
        })),
      );
    switch (cmd) {
      case 'list':
        show(await notifications.listDeliveries({ db }, agentId, { page: 1, pageSize: 50 }));
        break;
      case 'failed': {
        const dead = await notifications.listDeliveries({ db }, agentId, { page: 1, pageSize: 50, status: 'dead' });
        const disabled = await notifications.listDeliveries({ db }, agentId, { page: 1, pageSize: 50, status: 'disabled' });
        show({ items: [...dead.items, ...disabled.items].sort((a, b) => b.id - a.id).slice(0, 50) });
        break;
      }
      case 'replay': {
        if (args.length !== 1 || !/^\d+$/.test(args[0])) fail(USAGE);
        // The replay's job is written in the same transaction as the delivery's new state.
        const res = await notifications.replayDelivery({ db, queue: await publisher() }, null, Number(args[0]));
        console.log(res.message);
        break;
      }
      default:
        fail(USAGE);
    }
  }).catch((err) => {
    if (isAppError(err)) fail(`${err.status} ${err.code}: ${err.message}`);
    throw err;
  });
}

/** `--name value` from the arguments, or undefined. */
function option(args, name) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function mls(cmd, args) {
  await withOps(path.join('modules', 'mls', 'index.js'), {}, async ({ db, publisher }) => {
    const { loadConfig } = require(path.join(dist, 'platform', 'config.js'));
    const { createLogger } = require(path.join(dist, 'platform', 'logger.js'));
    const mlsModule = require(path.join(dist, 'modules', 'mls', 'index.js'));
    const config = loadConfig();
    switch (cmd) {
      case 'poll': {
        const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
        const provider = mlsModule.pollProvider(config, db, logger);
        const out = await mlsModule.pollFeed({ db, queue: await publisher(), config, logger, provider }, { force: true });
        if (!out.polled) {
          console.log(`feed ${out.feed}: another poll is running; try again in a moment`);
          process.exitCode = 1;
          break;
        }
        const r = out.result;
        table([{ feed: out.feed, pages: r.pages, records: r.records, applied: r.applied, replayed: r.stale, skipped: r.skipped, events: r.events, firstPass: r.baseline, watermark: r.cursor ? `${r.cursor.timestamp} ${r.cursor.key}` : '' }]);
        break;
      }
      case 'events':
        table(
          (await mlsModule.recentListingEvents(db, { agentMlsId: args[0] })).map((e) => ({
            id: e.id,
            listing: e.listingKey,
            agent: e.agentMlsId ?? '',
            type: e.type,
            at: e.occurredAt.toISOString(),
            detected: e.detectedAt.toISOString(),
            reason: (e.reason ?? '').slice(0, 60),
          })),
        );
        break;
      case 'demo': {
        const change = args[0];
        const agent = option(args, 'agent');
        const listing = option(args, 'listing');
        if (!mlsModule.DEMO_CHANGES.includes(change) || !agent) fail(USAGE);
        if (config.providers.mls !== 'demo') fail('The demo MLS is not the configured MLS (RESO_BASE_URL is set): nothing to change.');
        await orRefused(async () => {
          const res = await mlsModule.makeDemoChange(db, change, agent, listing);
          table([{ change: res.change, listing: res.listingKey, address: res.address, status: res.standardStatus, price: res.listPrice, modified: res.modificationTimestamp }]);
        }, (err) => err?.code === 'mls.demo_change_refused');
        break;
      }
      default:
        fail(USAGE);
    }
  });
}

async function autopilot(cmd, args) {
  await withOps(path.join('modules', 'autopilot', 'index.js'), { max: 3 }, async ({ db, publisher }) => {
    const { loadConfig } = require(path.join(dist, 'platform', 'config.js'));
    const { createLogger } = require(path.join(dist, 'platform', 'logger.js'));
    const { withLocalSecrets } = require(path.join(dist, 'platform', 'secrets.js'));
    const ap = require(path.join(dist, 'modules', 'autopilot', 'index.js'));
    const show = async (runs) =>
      table(
        (await ap.presentRuns(runs)).map((r, i) => ({
          id: r.id,
          agent: runs[i].agentId,
          kind: r.kind,
          status: r.status,
          listing: r.listingKey,
          campaign: r.campaignId ?? '',
          campaignStatus: r.campaignStatus ?? '',
          launchAt: r.launchAt ?? '',
          reason: (r.reason ?? '').slice(0, 60),
        })),
      );
    switch (cmd) {
      case 'list': {
        const agentId = args[0] ? Number(args[0]) : undefined;
        if (args[0] && !Number.isInteger(agentId)) fail(USAGE);
        await show(await ap.listRuns(db, { agentId }));
        break;
      }
      case 'run-due':
      case 'skip': {
        // The same secrets as the running product (its links are signed with them), and its providers.
        const config = withLocalSecrets(loadConfig());
        const deps = ap.autopilotDeps({ db, config, logger: createLogger(process.env.LOG_LEVEL ?? 'warn'), queue: await publisher() });
        if (cmd === 'run-due') {
          const out = await ap.runDue(deps);
          table([{ launched: out.launched, retried: out.retried, expired: out.expired }]);
        } else {
          const id = Number(args[0]);
          if (args.length !== 1 || !Number.isInteger(id) || id < 1) fail(USAGE);
          await orRefused(async () => show([await ap.skipRun(deps, id, 'Skipped by ops')]), isAppError);
        }
        break;
      }
      default:
        fail(USAGE);
    }
  });
}

async function credits(cmd, args) {
  await withOps(path.join('modules', 'reports', 'index.js'), {}, async ({ db, url, closeAfter }) => {
    if (cmd === 'list') {
      const payments = require(path.join(dist, 'modules', 'payments', 'index.js'));
      table(
        (await payments.listCredits(db)).map((c) => ({
          id: c.id,
          campaign: c.campaignId,
          agent: c.agentId,
          method: c.method,
          amount: `$${(c.amountCents / 100).toFixed(2)}`,
          status: c.status,
          delivered: `${c.delivered}/${c.promised}`,
          refund: c.providerRefundId ?? '',
          note: (c.failureMessage ?? '').slice(0, 60),
          at: c.createdAt.toISOString(),
        })),
      );
      return;
    }
    if (cmd !== 'settle') fail(USAGE);
    const id = Number(args[0]);
    if (args.length !== 1 || !Number.isInteger(id) || id < 1) fail(USAGE);
    // The server's configuration and secrets (the seller link's key, the ad platform, the time scale).
    const { loadConfig } = require(path.join(dist, 'platform', 'config.js'));
    const { withLocalSecrets } = require(path.join(dist, 'platform', 'secrets.js'));
    const { createLogger } = require(path.join(dist, 'platform', 'logger.js'));
    const { createQueue } = require(path.join(dist, 'platform', 'jobs', 'queue.js'));
    const { jobs } = require(path.join(dist, 'jobs.js'));
    const reports = require(path.join(dist, 'modules', 'reports', 'index.js'));
    const config = withLocalSecrets(loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' }));
    const logger = createLogger(config.LOG_LEVEL);
    const queue = createQueue({ connectionString: url, db, logger, config, jobs, work: false });
    await queue.start();
    closeAfter(() => queue.stop());
    await orRefused(async () => {
      const settled = await reports.settleCampaignNow({ db, config, logger, queue }, id, 'settled by ops CLI');
      if (!settled) console.log(`campaign ${id} was settled before: nothing more to do`);
      else table([{ campaign: settled.campaignId, credit: `$${(settled.creditCents / 100).toFixed(2)}` }]);
    });
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
