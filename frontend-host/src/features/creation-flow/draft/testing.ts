import type { Agent, Listing } from './wizardTypes';

/** Test builders: an agent and a listing with sensible defaults (override what a test is about). */
export function anAgent(overrides: Partial<Agent> = {}): Agent {
  return {
    id: 7,
    name: 'Sarah Johnson',
    email: 'sarah@example.com',
    phone: '(813) 555-0142',
    state: 'FL',
    brokerage: 'Bayshore Realty Group',
    mlsId: 'FL30418',
    profileImageUrl: null,
    logoUrl: null,
    hasPassword: false,
    verified: false,
    access: 'draft',
    createdAt: '2026-11-01T12:00:00.000Z',
    ...overrides,
  };
}

export function aListing(overrides: Partial<Listing> = {}): Listing {
  return {
    id: 41,
    agentId: 7,
    mlsId: 'MLS-41',
    address: '2903 W Azeele St',
    city: 'Tampa',
    state: 'FL',
    postalCode: '33606',
    price: '615000',
    bedrooms: 3,
    bathrooms: '2.0',
    squareFeet: 1800,
    status: 'active',
    imageUrl: '/demo-mls/photos/exterior-06.jpg',
    images: ['/demo-mls/photos/exterior-06.jpg', '/demo-mls/photos/living-01.jpg'],
    description: 'Bright bungalow near the river.',
    ...overrides,
  };
}
