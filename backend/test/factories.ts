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
 * A wizard browser, made through the API the way the wizard does it: a manual agent owned by the
 * session, and one of its listings.
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
