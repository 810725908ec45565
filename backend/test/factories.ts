import crypto from 'node:crypto';
import argon2 from 'argon2';
import { LeadFormTokens } from '../src/modules/leads';
import type { TestContext } from './helpers';

export type Session = ReturnType<TestContext['newSession']>;

/** A listing body for POST /api/listings, with sensible defaults (a 3-bed in Tampa with one photo). */
export function listingBody(agentId: number, overrides: Record<string, unknown> = {}) {
  return {
    agentId,
    address: '12 Palm Ave',
    city: 'Tampa',
    state: 'FL',
    price: '450000',
    bedrooms: 3,
    bathrooms: '2.0',
    squareFeet: 1850,
    status: 'active',
    imageUrl: null,
    images: ['https://photos.example.com/1.jpg'],
    ...overrides,
  };
}

/**
 * A wizard browser, made through the API the way the wizard does it: a manual agent this session has the
 * wizard's draft access to (DESIGN §3), and one of its listings.
 */
export async function wizardBrowser(
  session: Session,
  opts: { name?: string; listing?: Record<string, unknown> } = {},
): Promise<{ session: Session; agent: { id: number; name: string } & Record<string, unknown>; listing: { id: number; mlsId: string } & Record<string, unknown> }> {
  const { body: agent } = await session
    .post('/api/agents')
    .send({ name: opts.name ?? 'Dana Whitfield', state: 'FL', manualEntry: true, brokerage: null, phone: null, email: null })
    .expect(201);
  const { body: listing } = await session.post('/api/listings').send(listingBody(agent.id, opts.listing)).expect(201);
  return { session, agent, listing };
}

// Rows written straight to the tables live in src/testing/rows.ts (compiled: bench:launch uses them too); tests
// import every factory from here.
export { agentWithListing, insertAgent, insertDraftCampaign, insertLead, insertListing, insertListingWithDraftCampaign, waitFor } from '../src/testing/rows';

/**
 * A wizard agent that has an account and is signed in, in `session`. The account is made in the database
 * (argon2id hash and a verified email, as an opened account setup link leaves them) so tests about other things
 * skip the email verification journey, which the agents module's own tests walk; the login goes through the API.
 */
export async function loggedInAgent(
  t: Pick<TestContext, 'db'>,
  session: Session,
  opts: { name?: string; email: string; password: string },
): Promise<{ session: Session; agent: { id: number; name: string } & Record<string, unknown> }> {
  const { agent } = await wizardBrowser(session, { name: opts.name });
  await t.db('agents')
    .where({ id: agent.id })
    .update({ email: opts.email.toLowerCase(), verifiedAt: new Date(), passwordHash: await argon2.hash(opts.password, { type: argon2.argon2id }) });
  await session.post('/api/auth/login').send({ email: opts.email, password: opts.password }).expect(200);
  return { session, agent };
}

/**
 * A body for POST /api/listings/{mlsId}/leads as the listing page's form sends it: Jordan Buyer asking about a tour,
 * a form token from 10 s ago signed with `sessionSecret` (the server's SESSION_SECRET), a fresh idempotency key,
 * with `overrides` laid on top.
 */
export function leadFormBody(sessionSecret: string, mlsId: string, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Jordan Buyer',
    email: 'jordan@example.com',
    phone: '(813) 555-0100',
    message: 'Is it still available?',
    interestedInTour: true,
    interestedInSimilar: false,
    website: '',
    formToken: new LeadFormTokens(sessionSecret).issue(mlsId, Date.now() - 10_000),
    idempotencyKey: crypto.randomBytes(12).toString('base64url'),
    ...overrides,
  };
}

/**
 * A buyer's lead through POST /api/listings/{mlsId}/leads, as the listing page sends it (a form token from
 * 10 s ago, a fresh idempotency key); resolves with the stored lead's id.
 */
export async function postLead(
  t: Pick<TestContext, 'request' | 'config'>,
  mlsId: string,
  lead: { name?: string; email?: string; phone?: string } = {},
): Promise<number> {
  const res = await t.request
    .post(`/api/listings/${mlsId}/leads`)
    .send(leadFormBody(t.config.SESSION_SECRET!, mlsId, Object.fromEntries(Object.entries(lead).filter(([, v]) => v !== undefined))));
  if (res.status !== 201) throw new Error(`lead refused: ${res.status} ${res.text}`);
  return res.body.id;
}

/**
 * Sign `session` in as an agent it works on in the wizard, as opening the emailed link would leave it (the agent
 * verified with `email`, this browser signed in), without the email round trip: for tests about what the signed-in
 * agent reaches. The agents module's own tests walk the link itself.
 */
export async function signInWizard(t: Pick<TestContext, 'db'>, agentId: number, email = `agent${agentId}@example.com`): Promise<void> {
  await t.db('agents').where({ id: agentId }).update({ email: t.db.raw('coalesce(email, ?)', [email.toLowerCase()]), verifiedAt: t.db.fn.now() });
  await t.db.raw(`update sessions set data = data || jsonb_build_object('agentId', ?::int) where data->'wizardAgentIds' @> to_jsonb(?::int)`, [agentId, agentId]);
}

/** `wizardBrowser`, then signed in as its agent (`signInWizard`): a browser that reaches the dashboard's routes. */
export async function signedInBrowser(t: Pick<TestContext, 'db'>, session: Session, opts: { name?: string; listing?: Record<string, unknown> } = {}) {
  const made = await wizardBrowser(session, opts);
  await signInWizard(t, made.agent.id);
  return made;
}

/**
 * A body for POST /api/campaigns as the wizard sends it at the pricing step: a just-listed single-image draft for
 * the listing, 25,000 impressions for $399, with `overrides` laid on top.
 */
export function campaignDraftBody(agentId: number, listingId: number, overrides: Record<string, unknown> = {}) {
  return {
    agentId,
    listingId,
    templateType: 'just-listed',
    adFormat: 'single',
    headline: 'Amazing Property in Tampa',
    description: 'Sunny 3-bed home with a pool. Schedule a tour today.',
    subtitle: 'Looking to buy, rent or sell?',
    callToAction: 'View Details',
    targetAudience: 'Local Home Buyers (25-55)',
    impressions: 25000,
    price: '399',
    imageUrl: 'https://photos.example.com/1.jpg',
    carouselImages: [],
    link: 'https://agent.example.com/listing/12-palm',
    status: 'draft',
    ...overrides,
  };
}

/** POST /api/campaigns as `session`: a draft for the listing (just listed, a single image, 15,000 impressions for $299); its id. */
export async function postDraftCampaign(session: Session, agentId: number, listingId: number): Promise<number> {
  const { body } = await session
    .post('/api/campaigns')
    .send({ agentId, listingId, templateType: 'just-listed', adFormat: 'single', headline: 'New in Tampa', description: 'Sunny 3-bed home.', price: '299', impressions: 15000, status: 'draft' })
    .expect(201);
  return body.id as number;
}
