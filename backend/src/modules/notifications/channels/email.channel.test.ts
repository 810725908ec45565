import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../../../../test/helpers';
import { issueSignInLink } from '../../agents';
import { deliverJob, sendDigestsJob } from '..';
import { enqueueLeadDeliveries } from '../delivery/lead-deliveries';
import { notifyCampaignLive } from '../delivery/campaign-live';
import { insertAgent, insertLead, insertListing, waitFor } from '../../../../test/factories';

/**
 * Email only to verified addresses (DESIGN §3, issue 23): nothing with content (a buyer's name, email, phone or
 * message) reaches an address nobody verified. Through the real delivery jobs, the outbox and the agents door.
 */

jest.setTimeout(60_000);

let t: TestContext;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-email-channel-'));
  t = await createTestContext({ work: true, jobs: [deliverJob], env: { DATA_DIR: dataDir, PUBLIC_URL: 'https://homes.example.com' } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Every email in the outbox to `to`, raw (quoted-printable soft breaks and `=3D` undone). */
function outboxTo(to: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((eml) => new RegExp(`^To: ${to.replace(/[.]/g, '\\.')}$`, 'm').test(eml));
}

let seq = 0;
/** An MLS identity nobody verified (the MLS publishes `mlsEmail`; a stranger's wizard typed another contact email), and one listing. */
async function unverifiedMember() {
  seq += 1;
  const mlsEmail = `member${seq}@brokerage.example`;
  const agent = await insertAgent(t.db, { name: 'Michael Chen', state: 'CA', source: 'mls', mlsSystem: 'demo', mlsId: `CA-${seq}-${Date.now()}`, mlsEmail, mlsName: 'Michael Chen', email: 'typed-by-someone@stranger.example' });
  const listing = await insertListing(t.db, agent.id, { address: `${seq} Ocean Ave`, city: 'San Jose', state: 'CA', priceCents: 90_000_000 });
  return { agent, listing, mlsEmail };
}

async function lead(agent: { id: number }, listing: { id: number; mlsId: string }, name = 'Jamie Buyer') {
  const l = await insertLead(t.db, agent, listing, { name, email: `${name.split(' ')[0].toLowerCase()}@buyer.example` });
  await t.db.transaction((trx) => enqueueLeadDeliveries({ queue: t.queue, config: t.config, caches: t.caches }, trx, l));
  return l;
}

const emailMessage = (leadId: number) => t.db('notificationMessages').where({ leadId, channel: 'email' }).first();
const BUYER_DATA = ['Jamie', 'jamie@buyer.example', 'Casey', 'casey@buyer.example', '8135550101', 'Is it still available?'];

describe('an MLS identity nobody verified', () => {
  it('gets a content-free notice (one an hour) at the MLS-published email; the lead email waits, then goes out in full once verified', async () => {
    const { agent, listing, mlsEmail } = await unverifiedMember();
    const first = await lead(agent, listing, 'Jamie Buyer');

    // The lead's email waits: a clear state, and no attempt made or logged.
    await waitFor('lead email waiting', async () => (await emailMessage(first.id))?.status === 'waiting', 10_000);
    expect(await t.db('notificationDeliveries').where({ leadId: first.id })).toEqual([]);

    // The notice: to the MLS's email, the listing's address and a sign-in link; no buyer data, no Reply-To.
    const notice = await waitFor('notice sent', async () => outboxTo(mlsEmail)[0], 10_000);
    // The listing's address as the lead's snapshot has it (test/factories' insertLead).
    expect(notice).toMatch(/^Subject: You have a new lead on 12 Palm Ave, Tampa, FL$/m);
    expect(notice).toMatch(/https:\/\/homes\.example\.com\/verify-email\?token=[A-Za-z0-9_-]{40,}/);
    expect(notice).not.toMatch(/^Reply-To:/m);
    for (const data of BUYER_DATA) expect(notice).not.toContain(data);
    // Nothing at all went to the contact email a stranger typed.
    expect(outboxTo('typed-by-someone@stranger.example')).toEqual([]);

    // A second lead within the hour: it waits too, and makes no second notice.
    const second = await lead(agent, listing, 'Casey Buyer');
    await waitFor('second lead email waiting', async () => (await emailMessage(second.id))?.status === 'waiting', 10_000);
    expect(await t.db('notificationMessages').where({ agentId: agent.id, kind: 'lead.notice' }).count({ n: '*' }).first()).toEqual({ n: '1' });
    expect(outboxTo(mlsEmail)).toHaveLength(1);

    // The dashboard says how many emails wait (an admin viewing as the agent sees it).
    const admin = t.newSession();
    await admin.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
    await admin.get(`/api/admin/login-as/${agent.id}`).expect(302);
    expect((await admin.get(`/api/agents/${agent.id}/notification-settings`).expect(200)).body.waitingEmails).toBe(2);

    // The owner opens a sign-in link sent to the MLS's email: the identity is verified, and the waiting emails go out.
    const token = new URL(await issueSignInLink(t.db, 'https://homes.example.com', { agentId: agent.id, email: mlsEmail })).searchParams.get('token')!;
    const owner = t.newSession();
    await owner.post('/api/auth/verify-email').send({ token }).expect(200);
    await waitFor('released', async () => (await emailMessage(first.id))?.status === 'delivered' && (await emailMessage(second.id))?.status === 'delivered', 10_000);
    const full = outboxTo(mlsEmail).filter((eml) => eml.includes('Reply-To:'));
    expect(full).toHaveLength(2);
    expect(full.join('\n')).toContain('Is it still available?');
    expect((await owner.get(`/api/agents/${agent.id}/notification-settings`).expect(200)).body.waitingEmails).toBe(0);
  });

  it('gets at most one notice in any hour (not one per clock hour), and another once the hour has passed', async () => {
    const { agent, listing, mlsEmail } = await unverifiedMember();
    await lead(agent, listing);
    await waitFor('first notice', async () => outboxTo(mlsEmail).length === 1, 10_000);
    const notices = () => t.db('notificationMessages').where({ agentId: agent.id, kind: 'lead.notice' }).orderBy('id');
    // Sent 50 minutes ago, in the previous clock hour: a lead now still makes none.
    const [first] = await notices();
    await t.db('notificationMessages').where({ id: first.id }).update({ createdAt: t.db.raw(`now() - interval '50 minutes'`), payload: JSON.stringify({ ...first.payload, hour: 'earlier' }) });
    const second = await lead(agent, listing, 'Casey Buyer');
    await waitFor('second lead waiting', async () => (await emailMessage(second.id))?.status === 'waiting', 10_000);
    expect(await notices()).toHaveLength(1);
    // An hour and more after it: the next lead makes one.
    await t.db('notificationMessages').where({ id: first.id }).update({ createdAt: t.db.raw(`now() - interval '61 minutes'`) });
    await lead(agent, listing, 'Riley Buyer');
    await waitFor('second notice', async () => (await notices()).length === 2, 10_000);
  });

  it('gets the go-live email at the MLS-published email, with a sign-in link (the ad is public; no buyer data in it)', async () => {
    const { agent, mlsEmail } = await unverifiedMember();
    const [listing] = await t.db('listings').where({ agentId: agent.id });
    const [campaign] = await t.db('campaigns')
      .insert({ agentId: agent.id, listingId: listing.id, templateType: 'just-listed', budgetCents: 29_900, impressionsRequested: 15_000, status: 'active', headline: 'Just Listed' })
      .returning('id');
    await t.db.transaction((trx) =>
      notifyCampaignLive({ queue: t.queue }, trx, {
        campaignId: campaign.id, agentId: agent.id, headline: 'Just Listed', primaryText: 'Come see it.', imageUrl: null, listingAddress: 'San Jose, CA',
        targeting: null, budgetCents: 29_900, impressions: 15_000, startsAt: null, endsAt: null,
      }),
    );
    const live = await waitFor('go-live email', async () => outboxTo(mlsEmail).find((eml) => eml.includes('Your ad is live')), 10_000);
    expect(live).toMatch(/https:\/\/homes\.example\.com\/verify-email\?token=/);
    expect(live).not.toContain('/login"');
  });

  it('a daily digest waits too', async () => {
    const { agent, listing } = await unverifiedMember();
    await t.db('notificationSettings').insert({ agentId: agent.id, instantNotifications: false });
    await lead(agent, listing);
    await sendDigestsJob.handler({}, { db: t.db, logger: { info: () => undefined } as never, config: t.config, queue: t.queue, jobId: 'digest', retryCount: 0, signal: new AbortController().signal });
    const digest = await waitFor('digest waiting', async () => {
      const m = await t.db('notificationMessages').where({ agentId: agent.id, kind: 'lead.digest' }).first();
      return m?.status === 'waiting' && m;
    }, 10_000);
    expect(digest.attempts).toBe(0);
  });
});

describe('a manual agent nobody verified', () => {
  it('gets nothing at the email typed for it: the lead email waits, and no notice is sent (a typed address is no one\'s word)', async () => {
    const agent = await insertAgent(t.db, { source: 'manual', email: 'typed@somewhere.example' });
    const listing = await insertListing(t.db, agent.id, { mlsId: `MANUAL-${Date.now()}`, address: '9 Bay St', priceCents: 1 });
    const l = await lead(agent, listing);
    await waitFor('waiting', async () => (await emailMessage(l.id))?.status === 'waiting', 10_000);
    expect(await t.db('notificationMessages').where({ agentId: agent.id, kind: 'lead.notice' })).toEqual([]);
    expect(outboxTo('typed@somewhere.example')).toEqual([]);
  });
});
