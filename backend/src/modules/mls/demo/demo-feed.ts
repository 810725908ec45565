import crypto from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import { REPO_ROOT } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import { readCollection } from '../providers/mls-provider';
import { demoChangeRefused } from '../mls.errors';

/** The bundled demo MLS: RESO-shaped Member and Property (with Media) records, and their photos. */
export const DEMO_MLS_DIR = path.join(REPO_ROOT, 'backend', 'assets', 'demo-mls');
export const DEMO_PHOTOS_DIR = path.join(DEMO_MLS_DIR, 'photos');
/** Where the backend serves them (mls.routes.ts); the dataset's MediaURLs are these paths. */
export const DEMO_PHOTOS_PATH = '/demo-mls/photos/';

export interface DemoDataset {
  members: unknown[];
  properties: unknown[];
}

async function readResource(file: string): Promise<unknown[]> {
  const text = await readFile(path.join(DEMO_MLS_DIR, file), 'utf8');
  return readCollection(JSON.parse(text), file).value;
}

export async function loadDemoDataset(): Promise<DemoDataset> {
  const [members, properties] = await Promise.all([readResource('Member.json'), readResource('Property.json')]);
  return { members, properties };
}

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Write RESO records into the demo feed: members by MemberMlsId, properties by ListingKey, each property's
 * ModificationTimestamp moved to its column (now, when the record has none). Existing rows are kept as they
 * are (`replace: false`: seeding again never undoes a change made since) or replaced.
 */
export async function writeDemoDataset(db: Db | Knex, dataset: DemoDataset, opts: { replace?: boolean } = {}): Promise<{ members: number; properties: number }> {
  const members = dataset.members.filter(isRecord).filter((m) => typeof m.MemberMlsId === 'string');
  const properties = dataset.properties.filter(isRecord).filter((p) => typeof p.ListingKey === 'string');
  const conflict = opts.replace ? 'do update set record = excluded.record' : 'do nothing';
  const chunk = 1000;
  for (let i = 0; i < members.length; i += chunk) {
    const rows = members.slice(i, i + chunk).map((m) => ({ k: m.MemberMlsId, r: m }));
    await db.raw(
      `insert into demo_mls_members (member_mls_id, record)
       select k, r from jsonb_to_recordset(?::jsonb) as x(k text, r jsonb)
       on conflict (member_mls_id) ${conflict}`,
      [JSON.stringify(rows)],
    );
  }
  for (let i = 0; i < properties.length; i += chunk) {
    const rows = properties.slice(i, i + chunk).map((p) => {
      const { ModificationTimestamp: t, ...rest } = p;
      return { k: p.ListingKey, t: typeof t === 'string' && !Number.isNaN(Date.parse(t)) ? t : null, r: rest };
    });
    await db.raw(
      `insert into demo_mls_properties (listing_key, modification_timestamp, record)
       select k, coalesce(t::timestamptz, now()), r from jsonb_to_recordset(?::jsonb) as x(k text, t text, r jsonb)
       on conflict (listing_key) ${opts.replace ? 'do update set record = excluded.record, modification_timestamp = excluded.modification_timestamp' : 'do nothing'}`,
      [JSON.stringify(rows)],
    );
  }
  return { members: members.length, properties: properties.length };
}

const seeded = new WeakMap<object, Promise<void>>();

/**
 * The bundled records in the demo feed, once per database and process (`npm start` does it at start, the
 * demo provider before its first answer). Idempotent across processes: rows that exist stay as they are.
 */
export function seedDemoMls(db: Db): Promise<void> {
  let done = seeded.get(db);
  if (!done) {
    done = loadDemoDataset()
      .then((dataset) => writeDemoDataset(db, dataset))
      .then(() => undefined);
    done.catch(() => seeded.delete(db));
    seeded.set(db, done);
  }
  return done;
}

// ---------------------------------------------------------------- changes, as an MLS makes them

export const DEMO_CHANGES = ['new-listing', 'price-drop', 'pending', 'sold', 'withdrawn', 'back-on-market'] as const;
export type DemoChange = (typeof DEMO_CHANGES)[number];

export interface DemoChangeResult {
  change: DemoChange;
  listingKey: string;
  address: string;
  standardStatus: string;
  listPrice: number;
  modificationTimestamp: string;
}

/** Which statuses each change starts from (the listing chosen when none is named is the agent's latest such). */
const FROM: Record<Exclude<DemoChange, 'new-listing'>, string[]> = {
  'price-drop': ['Active', 'Coming Soon'],
  pending: ['Active', 'Coming Soon'],
  sold: ['Active', 'Coming Soon', 'Pending', 'Active Under Contract'],
  withdrawn: ['Active', 'Coming Soon', 'Pending'],
  'back-on-market': ['Pending', 'Withdrawn', 'Expired', 'Canceled', 'Active Under Contract'],
};

const today = () => new Date().toISOString().slice(0, 10);
const STREETS = ['Harbor View Dr', 'Palmetto Ave', 'Osprey Ln', 'Cypress Bend Ct', 'Magnolia Way', 'Sandpiper Cir', 'Heron Point Rd', 'Laurel Oak St'];

function newListingFrom(template: Rec, key: string, seed: number): Rec {
  const price = Math.round((Number(template.ListPrice) || 400_000) * (0.9 + (seed % 21) / 100) / 1000) * 1000;
  const street = `${100 + (seed % 8800)} ${STREETS[seed % STREETS.length]}`;
  const media = Array.isArray(template.Media) ? template.Media : [];
  const next: Rec = {
    ...template,
    ListingKey: key,
    ListingId: key.replace(/^[A-Z]+/, ''),
    StandardStatus: 'Active',
    ListPrice: price,
    UnparsedAddress: street,
    ListingContractDate: today(),
    DaysOnMarket: 0,
    Media: media.map((m, i) => (isRecord(m) ? { ...m, MediaKey: `${key}-M${i + 1}`, ResourceRecordKey: key } : m)),
  };
  for (const field of ['ClosePrice', 'CloseDate', 'MlgCanView', 'StreetNumber', 'StreetName', 'StreetSuffix']) delete next[field];
  return next;
}

/**
 * `npm run ops -- mls demo <change> --agent <MemberMlsId> [--listing <ListingKey>]`: change the demo feed as
 * an MLS would (the record and its ModificationTimestamp), so the next poll replicates it like any change.
 */
export async function makeDemoChange(db: Db, change: DemoChange, agentMlsId: string, listingKey?: string): Promise<DemoChangeResult> {
  await seedDemoMls(db);
  return db.transaction(async (trx) => {
    const member = await trx('demoMlsMembers').where({ memberMlsId: agentMlsId }).first();
    if (!member) throw demoChangeRefused(`No member ${agentMlsId} in the demo MLS`);
    let row: { listingKey: string; record: Rec } | undefined;
    if (change === 'new-listing') {
      const key = listingKey ?? `${agentMlsId.slice(0, 2).toUpperCase()}26${crypto.randomInt(10_000, 99_999)}${crypto.randomInt(0, 9)}`;
      if (await trx('demoMlsProperties').where({ listingKey: key }).first('listingKey')) throw demoChangeRefused(`The demo MLS already has a listing ${key}`);
      // Modelled on the agent's own listings (else any in the member's state): same MLS, office and photos.
      const template =
        (await trx('demoMlsProperties').where({ listAgentMlsId: agentMlsId }).orderByRaw("case when standard_status = 'Active' then 0 else 1 end").orderBy('modificationTimestamp', 'desc').first('record')) ??
        (await trx('demoMlsProperties').whereRaw("record->>'StateOrProvince' = ?", [String(member.record.MemberStateOrProvince ?? '')]).first('record'));
      if (!template) throw demoChangeRefused(`The demo MLS has no listing to model a new one for ${agentMlsId} on`);
      const base: Rec = { ...template.record, ListAgentMlsId: agentMlsId, ListAgentKey: member.record.MemberKey ?? null, ListAgentFullName: member.record.MemberFullName ?? null, ListOfficeName: member.record.OfficeName ?? template.record.ListOfficeName };
      const record = newListingFrom(base, key, crypto.randomInt(0, 1_000_000));
      await trx.raw('insert into demo_mls_properties (listing_key, modification_timestamp, record) values (?, clock_timestamp(), ?::jsonb)', [key, JSON.stringify(record)]);
      row = { listingKey: key, record };
    } else {
      const from = FROM[change];
      const query = trx('demoMlsProperties').where({ listAgentMlsId: agentMlsId }).forUpdate();
      const found = listingKey
        ? await query.where({ listingKey }).first('listingKey', 'record')
        : await query.whereIn('standardStatus', from).orderBy('modificationTimestamp', 'desc').first('listingKey', 'record');
      if (!found) throw demoChangeRefused(listingKey ? `${agentMlsId} has no listing ${listingKey} in the demo MLS` : `${agentMlsId} has no listing in ${from.join(', ')} to mark ${change}`);
      if (!from.includes(String(found.record.StandardStatus))) throw demoChangeRefused(`${found.listingKey} is ${found.record.StandardStatus}: ${change} starts from ${from.join(', ')}`);
      const record: Rec = { ...found.record };
      const price = Number(record.ListPrice) || 0;
      switch (change) {
        case 'price-drop':
          record.ListPrice = Math.max(1000, Math.round((price * 0.96) / 1000) * 1000);
          break;
        case 'pending':
          record.StandardStatus = 'Pending';
          break;
        case 'sold':
          record.StandardStatus = 'Closed';
          record.ClosePrice = price;
          record.CloseDate = today();
          break;
        case 'withdrawn':
          record.StandardStatus = 'Withdrawn';
          break;
        case 'back-on-market':
          record.StandardStatus = 'Active';
          delete record.ClosePrice;
          delete record.CloseDate;
          break;
      }
      await trx.raw('update demo_mls_properties set record = ?::jsonb, modification_timestamp = clock_timestamp() where listing_key = ?', [JSON.stringify(record), found.listingKey]);
      row = { listingKey: found.listingKey, record };
    }
    const stamp = (await trx('demoMlsProperties').where({ listingKey: row.listingKey }).first('modificationTimestamp')) as { modificationTimestamp: Date };
    return {
      change,
      listingKey: row.listingKey,
      address: `${row.record.UnparsedAddress ?? ''}, ${row.record.City ?? ''}, ${row.record.StateOrProvince ?? ''}`,
      standardStatus: String(row.record.StandardStatus),
      listPrice: Number(row.record.ListPrice),
      modificationTimestamp: stamp.modificationTimestamp.toISOString(),
    };
  });
}
