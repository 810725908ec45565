import { createLogger } from '../../platform/logger';
import { signLink } from '../../platform/crypto/signed-links';
import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../../../test/helpers';
import { signedInBrowser, signInWizard } from '../../../test/factories';
import { createDemoMlsProvider, makeDemoChange, pollFeed } from '../mls';
import { campaignWizardSchema, autopilotLinkResultSchema, autopilotLinkViewSchema, autopilotRunSchema, autopilotViewSchema } from '@app/contracts';
import { listingEventsJob, handleEventJob } from '.';

/*
 * GET/PUT /api/agents/:id/autopilot (owner only), the emailed links, and the whole chain through pg-boss: a poll
 * publishes `mls.listing-events`, autopilot's subscribed queue fans it out, and the draft is made.
 */

const logger = createLogger('silent');
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ work: true, jobs: [listingEventsJob, handleEventJob] });
  await poll();
});
afterAll(() => t.close());

const poll = () => pollFeed({ db: t.db, queue: t.queue, config: { MLS_POLL_INTERVAL_S: 300, RESO_REPLICATION_TOP: 1000 }, logger, provider: createDemoMlsProvider({ db: t.db }) }, { force: true });

async function mlsAgent(name = 'Sarah Johnson', state = 'FL') {
  const session = t.newSession();
  const { body: found } = await session.post('/api/mls/search-agent').send({ name, state }).expect(200);
  const { body: agent } = await session.post('/api/agents').send({ ...found, brokerage: null, phone: null });
  // Autopilot is the signed-in agent's (DESIGN §3): this browser signs in as the member it found.
  await signInWizard(t, agent.id);
  return { session, agentId: agent.id as number, mlsId: found.mlsId as string };
}

describe('GET/PUT /api/agents/:id/autopilot', () => {
  it('off with the defaults until turned on; {"enabled": true} alone is valid; any subset saves', async () => {
    const { session, agentId } = await mlsAgent();
    const { body: before } = await session.get(`/api/agents/${agentId}/autopilot`).expect(200);
    expect(before).toEqual({
      settings: { enabled: false, triggers: { justListed: true, justSold: true, priceImproved: false }, budget: 299, adFormat: 'single', vetoWindowHours: 24, pauseOnPending: true },
      mlsLinked: true,
      card: null,
      scheduled: [],
      history: [],
    });
    expect((await session.put(`/api/agents/${agentId}/autopilot`).send({ enabled: true }).expect(200)).body.settings).toEqual({ ...before.settings, enabled: true });
    const { body } = await session.put(`/api/agents/${agentId}/autopilot`).send({ vetoWindowHours: 2, budget: 449, adFormat: 'carousel', triggers: { priceImproved: true } }).expect(200);
    expect(body.settings).toEqual({ enabled: true, triggers: { justListed: true, justSold: true, priceImproved: true }, budget: 449, adFormat: 'carousel', vetoWindowHours: 2, pauseOnPending: true });
  });

  it('bad input is a 400 with field messages, never a 500', async () => {
    const { session, agentId } = await mlsAgent();
    const bad = await session.put(`/api/agents/${agentId}/autopilot`).send({ vetoWindowHours: 0, budget: 300, adFormat: 'video', enabled: 'yes', triggers: { justListed: 1 }, extra: true }).expect(400);
    expect(bad.body.fields).toMatchObject({
      vetoWindowHours: 'The veto window is 1 to 72 hours',
      budget: 'Budget must be between $99 and $999 in steps of $50',
      adFormat: 'adFormat must be single or carousel',
      enabled: 'enabled must be true or false',
      'triggers.justListed': 'justListed must be true or false',
    });
    await session.put(`/api/agents/${agentId}/autopilot`).send({ vetoWindowHours: 73 }).expect(400);
    await session.put(`/api/agents/${agentId}/autopilot`).send('not json').set('Content-Type', 'application/json').expect(400);
    await session.get('/api/agents/abc/autopilot').expect(400);
  });

  it('owner only: another browser gets 404, an admin viewing as the agent may look but not change it; a manual agent cannot turn it on', async () => {
    const { agentId } = await mlsAgent();
    const stranger = t.newSession();
    await stranger.get(`/api/agents/${agentId}/autopilot`).expect(404);
    await stranger.put(`/api/agents/${agentId}/autopilot`).send({ enabled: true }).expect(404);
    await stranger.post(`/api/agents/${agentId}/autopilot/runs/1/skip`).expect(404);

    await t.db('agents').where({ id: agentId }).update({ email: `owner-${agentId}@example.com`, passwordHash: 'x' });
    const admin = t.newSession();
    await admin.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
    await admin.get(`/api/admin/login-as/${agentId}`).expect(302);
    await admin.get(`/api/agents/${agentId}/autopilot`).expect(200);
    await admin.put(`/api/agents/${agentId}/autopilot`).send({ enabled: true }).expect(403);

    const manual = await signedInBrowser(t, t.newSession());
    const refused = await manual.session.put(`/api/agents/${manual.agent.id}/autopilot`).send({ enabled: true }).expect(409);
    expect(refused.body).toMatchObject({ code: 'autopilot.needs_mls', message: 'Autopilot follows your MLS listings: it works for agents found in the MLS.' });
    expect((await manual.session.get(`/api/agents/${manual.agent.id}/autopilot`).expect(200)).body.mlsLinked).toBe(false);
  });
});

describe('the chain through pg-boss, and the emailed links', () => {
  it('a poll publishes the events; autopilot\'s queue makes the draft; the Skip link works once, no login', async () => {
    const { session, agentId, mlsId } = await mlsAgent('Michael Chen', 'CA');
    await session.put(`/api/agents/${agentId}/autopilot`).send({ enabled: true }).expect(200);
    await makeDemoChange(t.db, 'new-listing', mlsId);
    await poll();
    const deadline = Date.now() + 20_000;
    let view;
    for (;;) {
      view = (await session.get(`/api/agents/${agentId}/autopilot`).expect(200)).body;
      if (view.scheduled.length || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(view.scheduled).toHaveLength(1);
    // The answers are what the API documents (api-docs.ts).
    autopilotViewSchema.parse(view);
    const run = view.scheduled[0];
    expect(run).toMatchObject({ kind: 'just_listed', status: 'scheduled', price: '299', campaignStatus: 'draft', headline: 'Amazing Property in San Jose' });

    const skip = signLink(t.config, { purpose: 'autopilot', subject: String(run.id), action: 'skip', expiresAt: Date.parse(run.launchAt) / 1000 });
    const anyone = t.newSession();
    expect((await anyone.get(`/api/autopilot/links/${skip}`).expect(200)).body).toMatchObject({ action: 'skip', usable: true, run: { id: run.id, status: 'scheduled' } });
    autopilotLinkViewSchema.parse((await anyone.get(`/api/autopilot/links/${skip}`).expect(200)).body);
    const used = await anyone.post(`/api/autopilot/links/${skip}`).expect(200);
    autopilotLinkResultSchema.parse(used.body);
    expect(used.body).toMatchObject({ action: 'skip', redirect: null, run: { status: 'skipped', campaignStatus: 'canceled' } });
    expect((await anyone.get(`/api/autopilot/links/${skip}`).expect(200)).body).toMatchObject({ usable: false, message: 'This link was already used.' });
    await anyone.post(`/api/autopilot/links/${skip}`).expect(409);
    // The dashboard's button on a skipped run: its own answer, documented as a run.
    expect((await session.post(`/api/agents/${agentId}/autopilot/runs/${run.id}/skip`).expect(200)).body).toMatchObject({ status: 'skipped' });
    autopilotRunSchema.parse((await session.post(`/api/agents/${agentId}/autopilot/runs/${run.id}/skip`).expect(200)).body);
    expect((await session.get(`/api/agents/${agentId}/autopilot`).expect(200)).body.history[0]).toMatchObject({ id: run.id, status: 'skipped', reason: 'Skipped from the email' });

    // Forged, expired and foreign tokens open nothing.
    const expired = signLink(t.config, { purpose: 'autopilot', subject: String(run.id), action: 'launch', expiresAt: Date.now() / 1000 - 1 });
    expect((await anyone.get(`/api/autopilot/links/${expired}`).expect(410)).body.code).toBe('autopilot.link_expired');
    const forged = `${skip.split('~')[0]}~${'A'.repeat(43)}`;
    expect((await anyone.post(`/api/autopilot/links/${forged}`).expect(404)).body.code).toBe('autopilot.link_invalid');
    const foreign = signLink({ SESSION_SECRET: 'some-other-secret-that-is-long-enough-0', ENCRYPTION_KEY: undefined }, { purpose: 'autopilot', subject: String(run.id), action: 'launch', expiresAt: Date.now() / 1000 + 3600 });
    await anyone.get(`/api/autopilot/links/${foreign}`).expect(404);
    await anyone.get('/api/autopilot/links/%20').expect(400);
  });

  it('the Edit link logs the browser in as the agent and opens the draft', async () => {
    const { session, agentId, mlsId } = await mlsAgent('Emily Rodriguez', 'TX');
    await session.put(`/api/agents/${agentId}/autopilot`).send({ enabled: true }).expect(200);
    await makeDemoChange(t.db, 'new-listing', mlsId);
    await poll();
    const deadline = Date.now() + 20_000;
    let run;
    while (!(run = await t.db('autopilotRuns').where({ agentId }).first()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const edit = signLink(t.config, { purpose: 'autopilot', subject: String(run.id), action: 'edit', expiresAt: run.launchAt.getTime() / 1000 });
    const other = t.newSession();
    await other.get(`/api/campaigns/${run.campaignId}`).expect(404);
    const { body } = await other.post(`/api/autopilot/links/${edit}`).expect(200);
    expect(body).toMatchObject({ action: 'edit', redirect: `/?edit=${run.campaignId}` });
    expect((await other.get(`/api/campaigns/${run.campaignId}`).expect(200)).body.status).toBe('draft');
    // What the wizard reopens: the draft with its agent and listing.
    const { body: wizard } = await other.get(`/api/campaigns/${run.campaignId}/wizard`).expect(200);
    campaignWizardSchema.parse(wizard);
    expect(wizard).toMatchObject({ agent: { id: agentId }, listing: { id: wizard.campaign.listingId, agentId }, campaign: { id: run.campaignId, status: 'draft' } });
    await t.newSession().get(`/api/campaigns/${run.campaignId}/wizard`).expect(404);
    // Used once.
    await t.newSession().post(`/api/autopilot/links/${edit}`).expect(410);
  });
});
