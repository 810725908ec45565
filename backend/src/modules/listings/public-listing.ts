import type { AgentCampaignListing, LeadDeliveryListing, LeadShownListing, ListingResponse, MlsComplianceInfo, PublicAgent, PublicListing } from '@app/contracts';
import { listingImages } from '@app/contracts';
import type { ReadCaches } from '../../platform/cache/read-cache';
import { pipelineOf, type Db } from '../../platform/db/knex';
import { findPublicAgent } from '../agents';
import { Listing } from './listing.model';
import { formatDateOnly, toNumberOrNull } from './listing-values';
import { LISTING_CORE_COLUMNS, presentLeadDeliveryListing, presentLeadShownListing, presentListingCard, presentListingCore, type ListingCoreRow } from './listings.presenter';

/**
 * One listing, one agent (CONTEXT.md): an MLS listing is one row (`listings_mls_listing_unique`), its listing
 * agent's; a payment never moves it. A manual listing's MANUAL-{timestamp} id is its agent's own: should two
 * agents' ids ever meet, the one saved first. One index scan.
 */
export async function resolvePublicListing(mlsId: string): Promise<Listing | undefined> {
  return Listing.query().where('mlsId', mlsId).orderBy('id').first();
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const numberOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The listing on a public page: the core and the buyer's facts (spec 001 §3 Listing, amenities flattened). */
export function presentPublicListing(l: Listing): PublicListing {
  const a = (l.amenities ?? {}) as Record<string, unknown>;
  const core = presentListingCore(l);
  const annualFee = numberOrNull(a.associationFeeAnnual);
  return {
    ...core,
    photos: listingImages(core),
    yearBuilt: l.yearBuilt,
    garageSpaces: l.garageSpaces,
    propertyType: l.propertyType,
    lotSize: l.lotSize,
    lotSizeSqFt: l.lotSizeSqFt,
    listDate: formatDateOnly(l.listDate),
    daysOnMarket: l.daysOnMarket,
    latitude: toNumberOrNull(l.latitude),
    longitude: toNumberOrNull(l.longitude),
    elementarySchool: l.elementarySchool,
    middleSchool: l.middleSchool,
    highSchool: l.highSchool,
    schoolDistrict: l.schoolDistrict,
    heating: strings(a.heating),
    cooling: strings(a.cooling),
    appliances: strings(a.appliances),
    interiorFeatures: strings(a.interiorFeatures),
    exteriorFeatures: strings(a.exteriorFeatures),
    fireplace: typeof a.fireplace === 'boolean' ? a.fireplace : null,
    parkingFeatures: strings(a.parkingFeatures),
    hoaFee: annualFee === null ? null : Math.round(annualFee),
    utilities: strings(a.utilities),
    dataUpdatedAt: new Date(l.updatedAt).toISOString(),
  };
}

/** The MLS's display requirements; a manual listing has no MLS, and the agent's brokerage is the one listing it. */
export function presentMlsCompliance(l: Listing, agent: PublicAgent): MlsComplianceInfo {
  const c = l.mlsCompliance ?? {};
  return {
    logo: null,
    mlsName: c.mlsName ?? null,
    disclaimer: c.disclaimer ?? null,
    brokerage: c.brokerage ?? agent.brokerage ?? null,
    broker: c.broker ?? null,
  };
}

/** GET /api/listings/{mlsId}: listing, agent and compliance, or undefined when no such listing exists. */
export async function findListingResponse(mlsId: string): Promise<ListingResponse | undefined> {
  const listing = await resolvePublicListing(mlsId);
  if (!listing) return undefined;
  const agent = await findPublicAgent(listing.agentId);
  if (!agent) return undefined;
  return { listing: presentPublicListing(listing), agent, mlsCompliance: presentMlsCompliance(listing, agent) };
}

/** What the leads module needs to store a lead for a public page's listing. */
export interface PublicListingRef {
  listingId: number;
  agentId: number;
  /** What a lead's delivery shows of the listing (notifications keep it as the lead's snapshot). */
  listing: Omit<LeadDeliveryListing, 'url'>;
}

/**
 * The listing a lead for this mlsId goes to, held in the read cache (a lead is posted again and again
 * for the same few listings). resolvePublicListing reads the listings table alone, so a listing stored
 * through this process empties it at once; a change made by another process is seen within the cache's
 * few seconds.
 * The answer is shared by every caller: read it, never change it.
 */
export async function findPublicListingRef({ caches }: { caches: ReadCaches }, mlsId: string): Promise<PublicListingRef | undefined> {
  return caches.named<PublicListingRef | undefined>('public-listing-ref', ['listings']).get(mlsId, () => loadPublicListingRef(mlsId));
}

/**
 * The listing `resolvePublicListing` picks, with only the columns a lead needs (the core and its agent), as one
 * named statement over the database's pipelined connection (platform/db `pipelineOf`): a lead to a listing not
 * in the read cache (a listing's first lead in a few seconds, the common case) costs no pool checkout, no query
 * building and no model, and leaves with the lead's counts in the same write.
 */
const PUBLIC_LISTING_REF = `select id, agent_id as "agentId", mls_id as "mlsId", address, city, state, postal_code as "postalCode",
         price_cents as "priceCents", bedrooms, bathrooms, square_feet as "squareFeet", status, image_url as "imageUrl", images, description
    from listings where mls_id = $1 order by id limit 1`;

async function loadPublicListingRef(mlsId: string): Promise<PublicListingRef | undefined> {
  // The models' database (platform/db createDb binds it): the one whose writes empty this cache.
  const { rows } = await pipelineOf(Listing.knex() as Db).query<ListingCoreRow & { agentId: number }>({ name: 'listings.public-listing-ref', text: PUBLIC_LISTING_REF, values: [mlsId] });
  const l = rows[0];
  if (!l) return undefined;
  return { listingId: l.id, agentId: l.agentId, listing: presentLeadDeliveryListing(l) };
}

/** "Lead as shown" needs each lead's listing (contracts' LeadShownListing), by listing id. */
export async function findListingSummaries(ids: readonly number[]): Promise<Map<number, LeadShownListing>> {
  const out = new Map<number, LeadShownListing>();
  if (!ids.length) return out;
  const rows = await Listing.query().whereIn('id', Array.from(new Set(ids))).select('id', 'address', 'priceCents', 'mlsId');
  for (const r of rows) out.set(r.id, presentLeadShownListing(r));
  return out;
}

/** The fields of a listing the dashboard's Property card shows, for the given ids (other modules' reads). */
export type ListingCard = AgentCampaignListing;

export async function findListingCards(ids: readonly number[]): Promise<Map<number, ListingCard>> {
  const out = new Map<number, ListingCard>();
  if (!ids.length) return out;
  const rows = await Listing.query().whereIn('id', Array.from(new Set(ids))).select(...LISTING_CORE_COLUMNS);
  for (const r of rows) out.set(r.id, presentListingCard(r));
  return out;
}
