#!/usr/bin/env node
// npm run bench:mail-floor — the floor under the worker's CPU per delivered lead with the embedded mail provider
// (issue 28's goal: ≤ 0.8 ms per lead, email and webhook together). Per lead email, in one run, on the built backend:
//  - the email's text: the lead email template (leadEmail) for a realistic lead;
//  - the MIME build alone: nodemailer's MailComposer, as the outbox and SMTP transports build it (composeEml);
//  - the file alone: creating one .eml file of those bytes in an outbox folder on DATA_DIR's file system
//    (open, write, close: the embedded provider writes one file per email, which a mail client opens);
//  - the whole send: mailer.send of the outbox provider (the build and the file).
// CPU is this process's user + system time (process.cpuUsage) per email, BENCH_EMAILS (2000) emails per round,
// BENCH_ROUNDS (5) rounds alternating the measures; medians. Nothing else runs in the process meanwhile.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backendDist as dist, buildBackend, median, sampleLeadDelivery, tempDir } from './lib.mjs';

buildBackend();
const { loadConfig } = dist('platform/config.js');
const { composeEml, createMailer } = dist('platform/email/mailer.js');
const { leadEmail } = dist('modules/notifications/emails/templates.js');

const EMAILS = Number(process.env.BENCH_EMAILS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const dataDir = process.env.BENCH_DATA_DIR ?? tempDir('la-bench-mail-floor-');
const config = loadConfig({ PUBLIC_URL: 'https://homes.example.com', DATA_DIR: dataDir });
const mailer = createMailer(config);
const dash = 'https://homes.example.com/verify-email?token=' + crypto.randomBytes(24).toString('base64url');
const emails = Array.from({ length: EMAILS }, (_, i) => leadEmail(config, 'agent@example.com', sampleLeadDelivery(i + 1), dash));
const built = await Promise.all(emails.slice(0, 50).map((e) => composeEml(config.MAIL_FROM, e)));
const fileDir = path.join(dataDir, 'floor-files');
fs.mkdirSync(fileDir, { recursive: true });

/** CPU ms (user + system) of this process per email for `work(i)` over EMAILS emails. */
async function cpuPerEmail(work) {
  const before = process.cpuUsage();
  for (let i = 0; i < EMAILS; i++) await work(i);
  const used = process.cpuUsage(before);
  return { total: (used.user + used.system) / 1000 / EMAILS, system: used.system / 1000 / EMAILS };
}
let f = 0;
const measures = {
  'lead email template (leadEmail)': async (i) => void leadEmail(config, 'agent@example.com', sampleLeadDelivery(i + 1), dash),
  'MIME build alone (nodemailer, composeEml)': (i) => composeEml(config.MAIL_FROM, emails[i]),
  'one .eml file created (open, write, close)': (i) => fs.writeFileSync(path.join(fileDir, `${f++}.eml`), built[i % built.length].eml, 'latin1'),
  'whole send, outbox provider (mailer.send)': (i) => mailer.send(emails[i]),
};
// Warm-up: JIT, the folder.
for (const work of Object.values(measures)) for (let i = 0; i < 200; i++) await work(i);
const figures = Object.fromEntries(Object.keys(measures).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, work] of Object.entries(measures)) figures[name].push(await cpuPerEmail(work));
  console.error(`[bench:mail-floor] round ${round + 1} of ${ROUNDS}`);
}
fs.rmSync(dataDir, { recursive: true, force: true });

const df = (() => {
  try {
    return fs.statfsSync(os.tmpdir()).type.toString(16);
  } catch {
    return '?';
  }
})();
console.log(`\nbench:mail-floor — ${ROUNDS} rounds × ${EMAILS} lead emails, CPU (user + system) per email, medians; ${os.cpus().length} cores, 1-min load ${os.loadavg()[0].toFixed(2)}, file system type 0x${df}\n`);
console.table(Object.entries(figures).map(([measure, xs]) => ({
  measure,
  'CPU ms per email': Number(median(xs.map((x) => x.total)).toFixed(3)),
  'of it system': Number(median(xs.map((x) => x.system)).toFixed(3)),
  rounds: xs.map((x) => x.total.toFixed(3)).join(', '),
})));
const floor = median(figures['MIME build alone (nodemailer, composeEml)'].map((x) => x.total)) + median(figures['one .eml file created (open, write, close)'].map((x) => x.total));
console.log(`The build and the file alone: ${floor.toFixed(3)} ms per email, against the worker's goal of ≤ 0.8 ms per delivered lead (email and webhook).`);
