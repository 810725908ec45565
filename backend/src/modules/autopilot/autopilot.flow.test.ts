import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../platform/logger';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { launchJobCount } from '../../../test/jobs';
import { signInWizard, type Session } from '../../../test/factories';
import { emailsTo, waitForEmail } from '../../../test/outbox';
import { launchCampaignJob } from '../campaigns';
import { deliverJob } from '../notifications';
import { createDemoMlsProvider, makeDemoChange, pollFeed, writeDemoDataset, type DemoChange } from '../mls';
import { autopilotDeps, type AutopilotDeps } from './deps';
import { eventsForAgents, handleListingEvent } from './event-flow';
import { launchDue, sweep } from './launch';

/*
 * The autopilot flow end to end on the demo MLS (a living feed), the sandbox ad platform and local test payments:
 * a change in the MLS → a poll → listing events → drafts, charges, launches, pauses. The clock autopilot reads
 * is moved forward (the veto window is 24 h); AUTOPILOT_TIME_SCALE shortens it in the journey instead.
 */

jest.setTimeout(120_000);
const logger = createLogger('silent');
const HOUR = 3_600_000;
let t: TestContext;
let deps: AutopilotDeps;
let clock = 0;

beforeAll(async () => {
  t = await createTestContext({ work: true, jobs: [launchCampaignJob, deliverJob], env: { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'autopilot-flow-')) } });
  deps = { ...autopilotDeps({ db: t.db, config: t.config, logger, queue: t.queue }), now: () => new Date(Date.now() + clock) };
  // The demo feed's first pass: what the MLS already has is copied, not news.
  await poll();
});
afterAll(() => t.close());
beforeEach(() => {
  clock = 0;
});

async function poll() {
  return pollFeed({ db: t.db, queue: t.queue, config: { MLS_POLL_INTERVAL_S: 300, RESO_REPLICATION_TOP: 1000 }, logger, provider: createDemoMlsProvider({ db: t.db }) }, { force: true });
}

const SURNAMES = ['Alder', 'Birch', 'Cedar', 'Dogwood', 'Elm', 'Fir', 'Hazel', 'Juniper', 'Larch', 'Maple', 'Oak', 'Rowan', 'Spruce', 'Willow'];
const namesUsed = new Set<string>();
let freshMembers = 0;

/**
 * The member to find: the demo MLS's own the first time a name is asked for, then a new member of the same
 * first name and state (one agent per MLS member: a test must not inherit another's runs, card or emails).
 */
async function memberName(name: string, state: string): Promise<string> {
  if (!namesUsed.has(name)) {
    namesUsed.add(name);
    return name;
  }
  const first = name.split(' ')[0];
  const last = SURNAMES[freshMembers++];
  const mlsId = `${state}9${String(freshMembers).padStart(4, '0')}`;
  await writeDemoDataset(t.db, {
    members: [
      {
        MemberKey: `M-${mlsId}`,
        MemberMlsId: mlsId,
        MemberFirstName: first,
        MemberLastName: last,
        MemberFullName: `${first} ${last}`,
        MemberEmail: `${first}.${last}@example.com`.toLowerCase(),
        MemberStateOrProvince: state,
        MemberStatus: 'Active',
        OfficeName: 'Test Realty',
      },
    ],
    properties: [],
  });
  return `${first} ${last}`;
}

/** An agent found in the demo MLS, made by a wizard browser, with autopilot on (and a saved card, unless told). */
async function autopilotAgent(opts: { name: string; state: string; card?: string | null; settings?: Record<string, unknown> }): Promise<{ session: Session; agentId: number; mlsId: string }> {
  const session = t.newSession();
  const { body: found } = await session.post('/api/mls/search-agent').send({ name: await memberName(opts.name, opts.state), state: opts.state }).expect(200);
  const { body: agent } = await session.post('/api/agents').send({ ...found, brokerage: null, phone: null });
  // The signed-in agent's (DESIGN §3), with a verified address: autopilot's emails go to a verified one only.
  await t.db('agents').where({ id: agent.id }).update({ email: `agent-${agent.id}@example.com` });
  await signInWizard(t, agent.id);
  await session.put(`/api/agents/${agent.id}/autopilot`).send({ enabled: true, ...opts.settings }).expect(200);
  if (opts.card !== null) {
    const { body: setup } = await session.post(`/api/agents/${agent.id}/saved-card/setup`).expect(200);
    await session.post('/api/payments/local/confirm').send({ clientSecret: setup.clientSecret, cardNumber: opts.card ?? '4242424242424242', expMonth: 12, expYear: 2031, cvc: '123' }).expect(200);
  }
  return { session, agentId: agent.id, mlsId: found.mlsId };
}

/** The MLS changes, the feed is polled, and autopilot handles the events (as its jobs would). */
async function change(kind: DemoChange, mlsId: string, listingKey?: string) {
  const made = await makeDemoChange(t.db, kind, mlsId, listingKey);
  const out = await poll();
  expect(out.polled).toBe(true);
  const ids = (await t.db('mlsListingEvents').where({ listingKey: made.listingKey }).orderBy('id').pluck('id')).map(Number);
  for (const { eventId, agentId } of await eventsForAgents(deps, ids)) await handleListingEvent(deps, eventId, agentId);
  return made;
}

const runsOf = (agentId: number) => t.db('autopilotRuns').where({ agentId }).orderBy('id');
const chargesFor = async (campaignId: number) => (await t.db('localPaymentIntents').whereRaw(`metadata->>'campaignId' = ?`, [String(campaignId)]).where({ status: 'succeeded' })).length;

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const campaignStatus = (id: number) => t.db('campaigns').where({ id }).first().then((c) => c.status as string);

describe('autopilot', () => {
  it('new listing → a draft built as the wizard would, scheduled at detectedAt + window, emailed; nothing is charged in the window; then it launches', async () => {
    const { agentId, mlsId } = await autopilotAgent({ name: 'Sarah Johnson', state: 'FL' });
    const listing = await change('new-listing', mlsId);
    const [run] = await runsOf(agentId);
    expect(run).toMatchObject({ kind: 'just_listed', status: 'scheduled', listingKey: listing.listingKey });
    const event = await t.db('mlsListingEvents').where({ id: run.eventId }).first();
    expect(run.launchAt.getTime() - event.detectedAt.getTime()).toBe(24 * HOUR);
    const campaign = await t.db('campaigns').where({ id: run.campaignId }).first();
    expect(campaign).toMatchObject({ status: 'draft', templateType: 'just-listed', budgetCents: 29_900, adFormat: 'single', agentName: 'Sarah Johnson', headline: 'Amazing Property in Tampa' });
    expect(campaign.description.length).toBeGreaterThan(40);
    expect(campaign.targeting).toMatchObject({ targetingLocation: { city: 'Tampa', state: 'FL', radius: 25 }, targetingTemplate: expect.any(String) });
    expect(campaign.link).toMatch(new RegExp(`/listing/${listing.listingKey}$`));

    // The email: preview, price, launch time, and the three links.
    const email = await waitForEmail(t.config.DATA_DIR, `agent-${agentId}@example.com`);
    expect(email.subject).toMatch(/^Just Listed ad for .+ launches /);
    for (const label of ['Launch now', 'Edit', 'Skip', '$299', listing.address.split(',')[0]]) expect(email.body).toContain(label);
    expect(email.body).toMatch(/Visa .{1,40}4242/);
    expect(email.body).toMatch(/\/autopilot\/[A-Za-z0-9_-]+~[A-Za-z0-9_-]{43}/);

    // Inside the window: nothing is due, nothing is charged, whoever asks.
    clock = 23 * HOUR;
    expect(await launchDue(deps, run.id)).toBeUndefined();
    await sweep(deps);
    expect(await t.db('payments').where({ campaignId: run.campaignId })).toHaveLength(0);

    // At launchAt: one off-session charge, then the existing launch.
    clock = 24 * HOUR + 1000;
    const out = await launchDue(deps, run.id);
    expect(out).toMatchObject({ charged: true, run: { status: 'launched', launchedBy: 'window' } });
    expect(await chargesFor(run.campaignId)).toBe(1);
    await until('the campaign goes live', () => campaignStatus(run.campaignId), (s) => s === 'active');
  });

  it('skip → no charge, ever: the draft is canceled and a due launch finds nothing to do', async () => {
    const { session, agentId, mlsId } = await autopilotAgent({ name: 'Michael Chen', state: 'CA' });
    await change('new-listing', mlsId);
    const [run] = await runsOf(agentId);
    const { body } = await session.post(`/api/agents/${agentId}/autopilot/runs/${run.id}/skip`).expect(200);
    expect(body).toMatchObject({ status: 'skipped', reason: 'Skipped from the dashboard', campaignStatus: 'canceled' });
    clock = 48 * HOUR;
    expect(await launchDue(deps, run.id)).toBeUndefined();
    await sweep(deps);
    expect(await t.db('payments').where({ campaignId: run.campaignId })).toHaveLength(0);
    // Checkout refuses it too.
    await session.post('/api/create-payment-intent').send({ campaignId: run.campaignId, amount: 299 }).expect(409);
  });

  it('launch now ends the window at once', async () => {
    const { session, agentId, mlsId } = await autopilotAgent({ name: 'Emily Rodriguez', state: 'TX' });
    await change('new-listing', mlsId);
    const [run] = await runsOf(agentId);
    const { body } = await session.post(`/api/agents/${agentId}/autopilot/runs/${run.id}/launch`).expect(200);
    expect(body).toMatchObject({ status: 'launched' });
    expect((await t.db('autopilotRuns').where({ id: run.id }).first()).launchedBy).toBe('launch_now');
    expect(await chargesFor(run.campaignId)).toBe(1);
    // Too late to skip.
    expect((await session.post(`/api/agents/${agentId}/autopilot/runs/${run.id}/skip`).expect(409)).body.code).toBe('autopilot.run_moved_on');
  });

  it('no card: the draft is built and emailed all the same; at launch it waits for a card, then expires after 72 h unpaid', async () => {
    const { agentId, mlsId } = await autopilotAgent({ name: 'Sarah Johnson', state: 'FL', card: null });
    await change('new-listing', mlsId);
    const [run] = await runsOf(agentId);
    const scheduled = await waitForEmail(t.config.DATA_DIR, `agent-${agentId}@example.com`);
    expect(scheduled.body).toContain('A card is needed to launch');
    clock = 24 * HOUR + 1000;
    expect(await launchDue(deps, run.id)).toMatchObject({ charged: false, run: { status: 'needs_card' } });
    const cardNeeded = await waitForEmail(t.config.DATA_DIR, `agent-${agentId}@example.com`, 2);
    expect(cardNeeded.subject).toMatch(/^Add a card to launch your ad/);
    clock = 24 * HOUR + 71 * HOUR;
    expect(await sweep(deps)).toMatchObject({ expired: 0 });
    clock = 24 * HOUR + 72 * HOUR + 1000;
    expect((await sweep(deps)).expired).toBeGreaterThanOrEqual(1);
    expect(await t.db('autopilotRuns').where({ id: run.id }).first()).toMatchObject({ status: 'expired' });
    expect(await campaignStatus(run.campaignId)).toBe('canceled');
    expect(await t.db('payments').where({ campaignId: run.campaignId })).toHaveLength(0);
  });

  it('charge failure (4000 0000 0000 0341): nothing launches, the agent is emailed; a new card is tried at the next sweep', async () => {
    const { session, agentId, mlsId } = await autopilotAgent({ name: 'Michael Chen', state: 'CA', card: '4000000000000341' });
    await change('new-listing', mlsId);
    const [run] = await runsOf(agentId);
    // The draft's own email first: the payment's email is the second (the two jobs may otherwise run in either order).
    await waitForEmail(t.config.DATA_DIR, `agent-${agentId}@example.com`);
    clock = 24 * HOUR + 1000;
    expect(await launchDue(deps, run.id)).toMatchObject({ charged: false, run: { status: 'charge_failed', reason: 'The payment failed: Your card was declined.' } });
    const email = await waitForEmail(t.config.DATA_DIR, `agent-${agentId}@example.com`, 2);
    expect(email.subject).toMatch(/^The payment for your ad for /);
    expect(await campaignStatus(run.campaignId)).toBe('pending_payment');
    // Nothing changes until the agent saves another card.
    expect(await sweep(deps)).toMatchObject({ retried: 0 });
    const { body: setup } = await session.post(`/api/agents/${agentId}/saved-card/setup`).expect(200);
    await session.post('/api/payments/local/confirm').send({ clientSecret: setup.clientSecret, cardNumber: '4242424242424242', expMonth: 12, expYear: 2031, cvc: '123' }).expect(200);
    // Saved "now" on autopilot's clock, which this test moved a day ahead.
    await t.db('paymentCards').where({ agentId }).update({ savedAt: new Date(Date.now() + clock + 1000) });
    expect((await sweep(deps)).retried).toBeGreaterThanOrEqual(1);
    expect(await t.db('autopilotRuns').where({ id: run.id }).first()).toMatchObject({ status: 'launched' });
    expect(await chargesFor(run.campaignId)).toBe(1);
  });

  it('authentication required (4000 0027 6000 3184): nothing launches until the agent confirms by the emailed link', async () => {
    const { agentId, mlsId } = await autopilotAgent({ name: 'Emily Rodriguez', state: 'TX', card: '4000002760003184' });
    // The card's 3-D Secure step at setup.
    const pending = await t.db('localSetupIntents').where({ status: 'requires_action' }).orderBy('createdAt', 'desc').first();
    const browser = t.newSession();
    await browser.post('/api/payments/local/authenticate').send({ clientSecret: pending.clientSecret, approve: true }).expect(200);
    await change('new-listing', mlsId);
    const [run] = await runsOf(agentId);
    // The draft's own email first: the payment's email is the second (the two jobs may otherwise run in either order).
    await waitForEmail(t.config.DATA_DIR, `agent-${agentId}@example.com`);
    clock = 24 * HOUR + 1000;
    expect(await launchDue(deps, run.id)).toMatchObject({ charged: false, run: { status: 'needs_authentication' } });
    const email = await waitForEmail(t.config.DATA_DIR, `agent-${agentId}@example.com`, 2);
    expect(email.subject).toMatch(/^Confirm the payment for your ad/);
    const token = /\/autopilot\/([A-Za-z0-9_-]+~[A-Za-z0-9_-]{43})/.exec(email.body)![1];
    // The link: no login; it says what it does, then logs the browser in and leads to the checkout page.
    const opener = t.newSession();
    expect((await opener.get(`/api/autopilot/links/${token}`).expect(200)).body).toMatchObject({ action: 'confirm', usable: true });
    const used = await opener.post(`/api/autopilot/links/${token}`).expect(200);
    expect(used.body).toMatchObject({ action: 'confirm', redirect: `/checkout/${run.campaignId}` });
    const { body: checkout } = await opener.post('/api/create-payment-intent').send({ campaignId: run.campaignId, amount: 299 }).expect(200);
    await opener.post('/api/payments/local/authenticate').send({ clientSecret: checkout.clientSecret, approve: true }).expect(200);
    await sweep(deps);
    expect(await t.db('autopilotRuns').where({ id: run.id }).first()).toMatchObject({ status: 'launched', launchedBy: 'checkout' });
    expect(await chargesFor(run.campaignId)).toBe(1);
    // Used once.
    expect((await opener.post(`/api/autopilot/links/${token}`).expect(409)).body.code).toBe('autopilot.run_moved_on');
  });

  it('two workers racing the same due draft make one charge and one launch', async () => {
    const { agentId, mlsId } = await autopilotAgent({ name: 'Sarah Johnson', state: 'FL' });
    await change('new-listing', mlsId);
    const [run] = await runsOf(agentId);
    clock = 24 * HOUR + 1000;
    const outcomes = await Promise.all([launchDue(deps, run.id), launchDue(deps, run.id), sweep(deps), launchDue(deps, run.id)]);
    expect(outcomes.filter((o) => o && 'charged' in o && o.charged)).toHaveLength(1);
    expect(await chargesFor(run.campaignId)).toBe(1);
    expect(await t.db('campaignTransitions').where({ campaignId: run.campaignId, toStatus: 'paid' })).toHaveLength(1);
    expect(await launchJobCount(t.db, run.campaignId)).toBe(1);
  });

  it('3 replays of the feed and of every event: no second draft, charge or launch', async () => {
    const { agentId, mlsId } = await autopilotAgent({ name: 'Michael Chen', state: 'CA' });
    const listing = await change('new-listing', mlsId);
    clock = 24 * HOUR + 1000;
    const [run] = await runsOf(agentId);
    await launchDue(deps, run.id);
    for (let i = 0; i < 3; i++) {
      await t.db('mlsFeeds').where({ name: 'demo' }).update({ watermarkTimestamp: null, watermarkKey: null });
      await poll();
      const ids = (await t.db('mlsListingEvents').where({ listAgentMlsId: mlsId }).pluck('id')).map(Number);
      await Promise.all((await eventsForAgents(deps, ids)).flatMap(({ eventId, agentId: a }) => [handleListingEvent(deps, eventId, a), handleListingEvent(deps, eventId, a)]));
      await sweep(deps);
    }
    expect(await t.db('mlsListingEvents').where({ listingKey: listing.listingKey })).toHaveLength(1);
    expect(await runsOf(agentId)).toHaveLength(1);
    expect(await t.db('campaigns').where({ agentId })).toHaveLength(1);
    expect(await chargesFor(run.campaignId)).toBe(1);
  });

  it('pending → the running ad pauses at the ad platform, the unused impressions are recorded; back on market → a resume offer that resumes it', async () => {
    const { session, agentId, mlsId } = await autopilotAgent({ name: 'Emily Rodriguez', state: 'TX' });
    const listing = await change('new-listing', mlsId);
    const [run] = await runsOf(agentId);
    await session.post(`/api/agents/${agentId}/autopilot/runs/${run.id}/launch`).expect(200);
    await until('the campaign goes live', () => campaignStatus(run.campaignId), (s) => s === 'active');

    await change('pending', mlsId, listing.listingKey);
    const campaign = await t.db('campaigns').where({ id: run.campaignId }).first();
    expect(campaign).toMatchObject({ status: 'paused', deliveryStoppedReason: 'Paused: the home went under contract' });
    expect(campaign.unusedImpressions).toBe(campaign.impressionsRequested - campaign.impressionsDelivered);
    const sandbox = await t.db('sandboxAdCampaigns').where({ id: campaign.facebookCampaignId }).first();
    expect(sandbox.pausedAt).not.toBeNull();
    const pause = (await runsOf(agentId)).find((r) => r.kind === 'pause');
    expect(pause).toMatchObject({ status: 'paused', targetCampaignIds: [run.campaignId] });

    await change('back-on-market', mlsId, listing.listingKey);
    const offer = (await runsOf(agentId)).find((r) => r.kind === 'resume_offer');
    expect(offer).toMatchObject({ status: 'offered' });
    const { body } = await session.post(`/api/agents/${agentId}/autopilot/runs/${offer.id}/resume`).expect(200);
    expect(body).toMatchObject({ status: 'resumed' });
    expect(await t.db('campaigns').where({ id: run.campaignId }).first()).toMatchObject({ status: 'active', unusedImpressions: null });
    expect((await t.db('sandboxAdCampaigns').where({ id: campaign.facebookCampaignId }).first()).pausedAt).toBeNull();
  });

  it('a paused ad whose flight ends while paused is ended and settled by the sweep: the guarantee credits what it did not deliver', async () => {
    const { session, agentId, mlsId } = await autopilotAgent({ name: 'Emily Rodriguez', state: 'TX' });
    const listing = await change('new-listing', mlsId);
    const [run] = await runsOf(agentId);
    await session.post(`/api/agents/${agentId}/autopilot/runs/${run.id}/launch`).expect(200);
    await until('the campaign goes live', () => campaignStatus(run.campaignId), (s) => s === 'active');
    await change('withdrawn', mlsId, listing.listingKey);
    const paused = await t.db('campaigns').where({ id: run.campaignId }).first();
    expect(paused.status).toBe('paused');
    // Within the flight the sweep leaves it paused (the listing may come back)…
    expect((await sweep(deps)).settled).toBe(0);
    expect(await campaignStatus(run.campaignId)).toBe('paused');
    // …after it, the ad is ended and settled once, however often the sweep runs.
    clock = paused.endsAt.getTime() - Date.now() + 1000;
    expect((await sweep(deps)).settled).toBe(1);
    expect((await sweep(deps)).settled).toBe(0);
    const ended = await t.db('campaigns').where({ id: run.campaignId }).first();
    expect(ended).toMatchObject({ status: 'completed', endReason: 'Stopped: the flight ended while paused', settledAt: expect.any(Date) });
    expect(ended.unusedImpressions).toBe(ended.impressionsRequested - ended.impressionsDelivered);
    expect((await t.db('campaignCredits').where({ campaignId: run.campaignId }).first())?.amountCents).toBeGreaterThan(0);
  });

  it('sold → the Just Listed ad stops (unused impressions recorded) and a Just Sold draft follows the same flow', async () => {
    const { session, agentId, mlsId } = await autopilotAgent({ name: 'Sarah Johnson', state: 'FL' });
    const listing = await change('new-listing', mlsId);
    const [run] = await runsOf(agentId);
    await session.post(`/api/agents/${agentId}/autopilot/runs/${run.id}/launch`).expect(200);
    await until('the campaign goes live', () => campaignStatus(run.campaignId), (s) => s === 'active');

    await change('sold', mlsId, listing.listingKey);
    const stopped = await t.db('campaigns').where({ id: run.campaignId }).first();
    expect(stopped).toMatchObject({ status: 'completed', deliveryStoppedReason: 'Stopped: the home sold' });
    expect(stopped.unusedImpressions).toBe(stopped.impressionsRequested - stopped.impressionsDelivered);
    expect(stopped.unusedImpressions).toBeGreaterThan(0);
    // Ended early, it is settled at once (reports' settleCampaignNow): the guarantee's credit for what it did not deliver.
    expect(stopped).toMatchObject({ endReason: 'Stopped: the home sold', settledAt: expect.any(Date) });
    expect(await t.db('campaignSettlements').where({ campaignId: run.campaignId }).first()).toMatchObject({ promised: stopped.impressionsRequested, delivered: stopped.impressionsDelivered });
    expect((await t.db('campaignCredits').where({ campaignId: run.campaignId }).first())?.amountCents).toBeGreaterThan(0);
    const runs = await runsOf(agentId);
    expect(runs.map((r) => `${r.kind}:${r.status}`)).toEqual(['just_listed:launched', 'stop:stopped', 'just_sold:scheduled']);
    const sold = await t.db('campaigns').where({ id: runs[2].campaignId }).first();
    expect(sold).toMatchObject({ templateType: 'just-sold', headline: 'Just Sold in Tampa', status: 'draft' });
    // The Just Listed draft, its go-live, the stop, the Just Sold draft and the settlement's final report.
    await waitForEmail(t.config.DATA_DIR, `agent-${agentId}@example.com`, 5);
    const emails = await emailsTo(t.config.DATA_DIR, `agent-${agentId}@example.com`);
    expect(emails.filter((e) => e.subject.startsWith('Final report'))).toHaveLength(1);
    expect(emails.find((e) => e.subject.startsWith('Just Sold ad for'))?.body).toContain('Your Just Listed ad for this home was stopped: the home sold.');
    expect(emails.find((e) => e.subject.startsWith('Your ad for'))?.subject).toBe(`Your ad for ${listing.address} is stopped`);
  });

  it('a draft not launched yet is skipped when its home goes under contract', async () => {
    const { agentId, mlsId } = await autopilotAgent({ name: 'Michael Chen', state: 'CA' });
    const listing = await change('new-listing', mlsId);
    await change('pending', mlsId, listing.listingKey);
    const [run] = await runsOf(agentId);
    expect(run).toMatchObject({ status: 'skipped', reason: 'Skipped: the home went under contract' });
    expect(await campaignStatus(run.campaignId)).toBe('canceled');
  });

  it('price drop → a Price Improved draft, only with that trigger on', async () => {
    const off = await autopilotAgent({ name: 'Emily Rodriguez', state: 'TX' });
    const listing = await change('new-listing', off.mlsId);
    await change('price-drop', off.mlsId, listing.listingKey);
    expect((await runsOf(off.agentId)).map((r) => r.kind)).toEqual(['just_listed']);
    await off.session.put(`/api/agents/${off.agentId}/autopilot`).send({ triggers: { priceImproved: true } }).expect(200);
    await change('price-drop', off.mlsId, listing.listingKey);
    const improved = (await runsOf(off.agentId)).find((r) => r.kind === 'price_improved');
    const campaign = await t.db('campaigns').where({ id: improved.campaignId }).first();
    expect(campaign.headline).toMatch(/^Price Improved in /);
    expect(campaign.description).toMatch(/^New price: \$[\d,]+ \(was \$[\d,]+\)\. /);
  });
});
