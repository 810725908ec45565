import type { Knex } from 'knex';
import { isManualMlsId, manualMlsId, type AgentListingsPage, type AgentListingsQuery, type ListingCreatePayload, type ListingStatus } from '@app/contracts';
import type { Actor } from '../../platform/auth/actor';
import type { ReadCaches } from '../../platform/cache/read-cache';
import { CachedJson } from '../../platform/http/compression';
import { conflict } from '../../platform/errors';
import { assertAgentAccess } from '../agents';
import { Listing, type MlsCompliance } from './listing.model';
import { priceToCents } from './listing-values';
import { LISTING_SUMMARY_COLUMNS, presentListing, presentListingSummary, type ListingSummaryRow, type ListingView } from './listings.presenter';

/**
 * One listing as the MLS module hands it over (already mapped from RESO and sanitised to fit
 * the columns). The listings module owns the table; the MLS module never writes it directly.
 */
export interface MlsListingInput {
  mlsId: string;
  address: string;
  city: string;
  state: string;
  postalCode: string | null;
  priceCents: number;
  bedrooms: number | null;
  /** "2.0", "2.5" */
  bathrooms: string | null;
  squareFeet: number | null;
  status: ListingStatus;
  imageUrl: string | null;
  images: string[];
  description: string | null;
  lotSize: string | null;
  lotSizeSqFt: number | null;
  yearBuilt: number | null;
  garageSpaces: number | null;
  propertyType: string | null;
  amenities: Record<string, unknown>;
  elementarySchool: string | null;
  middleSchool: string | null;
  highSchool: string | null;
  schoolDistrict: string | null;
  latitude: number | null;
  longitude: number | null;
  /** YYYY-MM-DD */
  listDate: string | null;
  soldDate: string | null;
  daysOnMarket: number | null;
  originatingSystemName: string | null;
  mlsCompliance: MlsCompliance;
}

/** Rows per INSERT … ON CONFLICT statement: 500 rows × 33 columns stays far below PostgreSQL's 65535 parameters. */
export const UPSERT_CHUNK_SIZE = 500;

/**
 * Columns an MLS load refreshes. mls_id, created_at and zillow_url keep their values; agent_id is the member
 * whose listings were loaded: the MLS's listing agent now (a listing the MLS moved to another agent follows).
 */
const MLS_COLUMNS = [
  'agentId', 'address', 'city', 'state', 'postalCode', 'priceCents', 'bedrooms', 'bathrooms', 'squareFeet', 'status',
  'imageUrl', 'images', 'description', 'lotSize', 'lotSizeSqFt', 'yearBuilt', 'garageSpaces', 'propertyType',
  'amenities', 'elementarySchool', 'middleSchool', 'highSchool', 'schoolDistrict', 'latitude', 'longitude',
  'listDate', 'soldDate', 'daysOnMarket', 'originatingSystemName', 'mlsCompliance', 'updatedAt',
] as const;

/**
 * Insert or refresh an agent's MLS listings: one `insert … on conflict (mls_id) do update` per chunk of rows,
 * never one statement per listing. One row per MLS listing (`listings_mls_listing_unique`): whoever loads the
 * member's listings refreshes the same rows. Run it inside the caller's transaction.
 * A key that appears twice keeps its last record (one statement cannot update a row twice); a key that looks
 * like a manual listing's (MANUAL-…) is not an MLS listing and is left out.
 * Returns the number of listings written.
 */
export async function upsertMlsListings(trx: Knex.Transaction | Knex, agentId: number, listings: MlsListingInput[]): Promise<number> {
  const byKey = new Map<string, MlsListingInput>();
  for (const l of listings) if (!isManualMlsId(l.mlsId)) byKey.set(l.mlsId, l);
  const now = new Date();
  const rows = Array.from(byKey.values(), (l) => ({
    agentId,
    mlsId: l.mlsId,
    address: l.address,
    city: l.city,
    state: l.state,
    postalCode: l.postalCode,
    priceCents: l.priceCents,
    bedrooms: l.bedrooms,
    bathrooms: l.bathrooms,
    squareFeet: l.squareFeet,
    status: l.status,
    imageUrl: l.imageUrl,
    // jsonb: serialise here, or pg would send a JS array as a PostgreSQL array.
    images: JSON.stringify(l.images),
    description: l.description,
    lotSize: l.lotSize,
    lotSizeSqFt: l.lotSizeSqFt,
    yearBuilt: l.yearBuilt,
    garageSpaces: l.garageSpaces,
    propertyType: l.propertyType,
    amenities: JSON.stringify(l.amenities),
    elementarySchool: l.elementarySchool,
    middleSchool: l.middleSchool,
    highSchool: l.highSchool,
    schoolDistrict: l.schoolDistrict,
    latitude: l.latitude,
    longitude: l.longitude,
    listDate: l.listDate,
    soldDate: l.soldDate,
    daysOnMarket: l.daysOnMarket,
    originatingSystemName: l.originatingSystemName,
    mlsCompliance: JSON.stringify(l.mlsCompliance),
    updatedAt: now,
  }));
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK_SIZE) {
    await trx('listings')
      .insert(rows.slice(i, i + UPSERT_CHUNK_SIZE))
      .onConflict(trx.raw(`(mls_id) where mls_id not like 'MANUAL-%'`))
      .merge([...MLS_COLUMNS]);
  }
  return rows.length;
}

/** The id of an agent's listing with this MLS id (after upsertMlsListings, in the same transaction); null when it has none. */
export async function agentListingIdByMlsId(trx: Knex.Transaction | Knex, agentId: number, mlsId: string): Promise<number | null> {
  const row = (await trx('listings').where({ agentId, mlsId }).first('id')) as { id: number } | undefined;
  return row?.id ?? null;
}

/** The loader's order: active first, then sold; newest first within each (sold by sold date, active by list date, manual ones by creation). */
const GROUP = `case when status = 'active' then 0 else 1 end`;
const SORT_DATE = `coalesce(sold_date, list_date, created_at::date)`;

/** Every listing of an agent, full rows, in the loader's order (one query on the agent_id index). */
export async function listAgentListings(agentId: number): Promise<Listing[]> {
  return Listing.query().where('agentId', agentId).orderByRaw(`${GROUP}, ${SORT_DATE} desc, id desc`);
}

/**
 * One page of an agent's listings for the wizard, in the loader's order, only the loader's columns, as
 * the JSON the route sends (with its compressed forms, platform/http/compression.ts). The access rule (DESIGN §3) is checked from the read cache's facts, and the
 * page itself is held there a few seconds (emptied by this process's writes to listings): the wizard's
 * loader and its retries cost no round trip. Keyset pagination: the cursor is where the previous page ended.
 */
export async function agentListingsPageJson(
  { caches }: { caches: ReadCaches },
  actor: Actor,
  agentId: number,
  { limit, cursor }: AgentListingsQuery,
): Promise<CachedJson> {
  await assertAgentAccess({ caches }, actor, agentId, 'draft');
  return caches.named<CachedJson>('agent-listings', ['listings']).get(`${agentId}|${limit}|${cursor ?? ''}`, async () => {
    const page = await readAgentListingsPage(agentId, { limit, cursor });
    return new CachedJson(JSON.stringify({ listings: page.rows.map(presentListingSummary), nextCursor: page.nextCursor } satisfies AgentListingsPage));
  });
}

async function readAgentListingsPage(agentId: number, { limit, cursor }: AgentListingsQuery): Promise<{ rows: ListingSummaryRow[]; nextCursor: string | null }> {
  const query = Listing.query()
    .select(...LISTING_SUMMARY_COLUMNS)
    // The sort date as ISO text (YYYY-MM-DD); the cursor is assembled here, not in SQL (to_char per row was
    // half the query's time).
    .select(Listing.raw(`${SORT_DATE}::text as sort_date`))
    .where('agentId', agentId)
    .orderByRaw(`${GROUP}, ${SORT_DATE} desc, id desc`)
    .limit(limit + 1);
  if (cursor) {
    const [group, date, id] = cursor.split('.');
    query.whereRaw(`(${GROUP} > ? or (${GROUP} = ? and (${SORT_DATE} < ?::date or (${SORT_DATE} = ?::date and id < ?))))`, [
      Number(group), Number(group), date, date, Number(id),
    ]);
  }
  const rows = (await query) as unknown as (ListingSummaryRow & { sortDate: string })[];
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  // The position of the page's last row in the loader's order: group (0 active, 1 other), sort date, id.
  return { rows: page, nextCursor: more ? `${last.status === 'active' ? 0 : 1}.${last.sortDate}.${last.id}` : null };
}

/** One listing in the wire shape, for other modules (campaigns, public pages); undefined when it does not exist. */
export async function findListingView(listingId: number): Promise<ListingView | undefined> {
  const row = await Listing.query().findById(listingId);
  return row ? presentListing(row) : undefined;
}

const MANUAL_ID = /^MANUAL-\d{1,16}$/;

/**
 * A manual listing (the "Enter Your Listing Information" form). Its mlsId is MANUAL-{timestamp}:
 * the client's value is kept only when it already is one, else the server makes it. The first
 * image is the primary one unless imageUrl says otherwise.
 */
export async function createManualListing(agentId: number, input: ListingCreatePayload, now: () => number = Date.now): Promise<Listing> {
  const clientId = input.mlsId && isManualMlsId(input.mlsId) && MANUAL_ID.test(input.mlsId) ? input.mlsId : null;
  const images = Array.from(new Set(input.images));
  const values = {
    agentId,
    address: input.address,
    city: input.city,
    state: input.state,
    priceCents: priceToCents(input.price),
    bedrooms: input.bedrooms,
    bathrooms: input.bathrooms,
    squareFeet: input.squareFeet,
    status: input.status,
    imageUrl: input.imageUrl ?? images[0] ?? null,
    images: JSON.stringify(images),
  };
  if (clientId) {
    // The client's own id, sent twice (a retry), is the same listing: a conflict, not a second row.
    const [row] = await Listing.knex()('listings').insert({ ...values, mlsId: clientId }).onConflict(['agentId', 'mlsId']).ignore().returning('id');
    if (!row) throw conflict('listings.duplicate', 'This listing was already saved');
    return Listing.query().findById(row.id).throwIfNotFound();
  }
  // MANUAL-{now}; two listings of one agent in the same millisecond take the next free one.
  let stamp = now();
  for (;;) {
    const [row] = await Listing.knex()('listings').insert({ ...values, mlsId: manualMlsId(stamp) }).onConflict(['agentId', 'mlsId']).ignore().returning('id');
    if (row) return Listing.query().findById(row.id).throwIfNotFound();
    stamp += 1;
  }
}

/** Which of these object paths a listing shows (its image or one of its photos): the uploads sweep keeps those. */
export async function listingObjectPathsInUse(paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const { rows } = (await Listing.knex().raw(
    `select image_url as path from listings where image_url = any(?::text[])
     union
     select p from listings, jsonb_array_elements_text(images) p where jsonb_exists_any(images, ?::text[]) and p = any(?::text[])`,
    [paths, paths, paths],
  )) as { rows: { path: string }[] };
  return new Set(rows.map((r) => r.path));
}

/**
 * A merge of agent `fromId` into `toId` (agents module's identity hooks): the listings follow the agent. A manual
 * listing whose MANUAL-{timestamp} id the survivor already uses takes a fresh one first (the pair is unique).
 */
export async function moveAgentListings(trx: Knex.Transaction, fromId: number, toId: number): Promise<Record<string, number>> {
  await trx.raw(
    `update listings l set mls_id = 'MANUAL-' || ((extract(epoch from clock_timestamp()) * 1000)::bigint + l.id)
      where l.agent_id = ? and exists (select 1 from listings k where k.agent_id = ? and k.mls_id = l.mls_id)`,
    [fromId, toId],
  );
  const listings = await trx('listings').where({ agentId: fromId }).update({ agentId: toId });
  return { listings };
}
