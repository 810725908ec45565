import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createDb, type Db } from '../../../platform/db/knex';
import { createTestDatabase } from '../../../../test/helpers';
import { writeDemoDataset } from '../demo/demo-feed';
import { createDemoMlsProvider, DEMO_PHOTOS_DIR, loadDemoDataset } from './demo.provider';
import type { MlsProvider } from './mls-provider';

// The demo MLS is rows in its own tables, answered by its in-process Web API: a database of its own here.
let db: Db;
let drop: () => Promise<void>;
let provider: MlsProvider;
beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDb(database.url, { max: 3 });
  provider = createDemoMlsProvider({ db });
});
afterAll(async () => {
  await db.destroy();
  await drop();
});

describe('demo MLS: agent search', () => {
  it('matches names case-insensitively and tolerates extra spaces', async () => {
    const [sarah] = await provider.searchMembers('  sarah   JOHNSON ', 'FL');
    expect(sarah).toEqual({
      mlsId: 'FL30418',
      name: 'Sarah Johnson',
      state: 'FL',
      email: 'sarah.johnson@bayshore-realty.example',
      phone: '(813) 555-0142',
      brokerage: 'Bayshore Realty Group',
    });
    expect((await provider.searchMembers('MICHAEL chen', 'CA')).map((m) => m.mlsId)).toEqual(['CA71265']);
    expect((await provider.searchMembers('Emily Rodriguez', 'TX')).map((m) => m.mlsId)).toEqual(['TX52890']);
    expect((await provider.searchMembers('david kim', 'NY')).map((m) => m.mlsId)).toEqual(['NY11473']);
  });

  it('finds only active members in the state asked for', async () => {
    expect(await provider.searchMembers('Michael Chen', 'FL')).toEqual([]);
    expect(await provider.searchMembers('Robert Miller', 'FL')).toEqual([]); // inactive
    expect(await provider.searchMembers('Sarah Johnson', 'TX')).toEqual([]); // a namesake, inactive
    expect(await provider.searchMembers('Sarah', 'FL')).toEqual([]);
    expect(await provider.searchMembers('Sarah Johnsonn', 'FL')).toEqual([]);
  });
});

// Rough bounding boxes of the states, to catch a listing placed in the wrong one.
const BOUNDS: Record<string, [number, number, number, number]> = {
  FL: [24.4, 31.1, -87.7, -79.9],
  CA: [32.5, 42.1, -124.5, -114.1],
  TX: [25.8, 36.6, -106.7, -93.5],
};

describe('demo MLS: the bundled dataset', () => {
  it.each([
    ['FL30418', 'FL'],
    ['CA71265', 'CA'],
    ['TX52890', 'TX'],
  ])('%s has at least 6 active and 3 sold listings with photos, schools and coordinates in %s', async (mlsId, state) => {
    const batch = await provider.listingsForAgent(mlsId);
    expect(batch.skipped).toBe(0);
    expect(batch.ignored).toBeGreaterThan(0); // a pending or expired record that is not loaded
    const active = batch.listings.filter((l) => l.status === 'active');
    const sold = batch.listings.filter((l) => l.status === 'sold');
    expect(active.length).toBeGreaterThanOrEqual(6);
    expect(sold.length).toBeGreaterThanOrEqual(3);
    const [latMin, latMax, lngMin, lngMax] = BOUNDS[state];
    for (const l of batch.listings) {
      expect(l.state).toBe(state);
      expect(l.images.length).toBeGreaterThanOrEqual(4);
      expect(l.imageUrl).toBe(l.images[0]);
      for (const url of l.images) {
        expect(url).toMatch(/^\/demo-mls\/photos\/[a-z]+-\d{2}\.jpg$/);
        expect(existsSync(path.join(DEMO_PHOTOS_DIR, path.basename(url)))).toBe(true);
      }
      expect(l.latitude).toBeGreaterThan(latMin);
      expect(l.latitude).toBeLessThan(latMax);
      expect(l.longitude).toBeGreaterThan(lngMin);
      expect(l.longitude).toBeLessThan(lngMax);
      expect(l.description!.length).toBeGreaterThan(40);
      expect(l.highSchool).toBeTruthy();
      expect(l.bedrooms).toBeGreaterThan(0);
      expect(l.bathrooms).toMatch(/^\d\.\d$/);
      expect(l.priceCents).toBeGreaterThan(100_000_00);
      expect(l.mlsCompliance.brokerage).toBeTruthy();
      if (l.status === 'sold') expect(l.soldDate).toMatch(/^2026-\d{2}-\d{2}$/);
    }
    // Each listing shown has its own front photo.
    expect(new Set(batch.listings.map((l) => l.imageUrl)).size).toBe(batch.listings.length);
  });

  it('David Kim is an active member with no listings', async () => {
    const batch = await provider.listingsForAgent('NY11473');
    expect(batch).toMatchObject({ listings: [], skipped: 0 });
  });

  it('keeps the photos small: JPEGs, under 6 MB in all', async () => {
    const files = readdirSync(DEMO_PHOTOS_DIR);
    expect(files.every((f) => f.endsWith('.jpg'))).toBe(true);
    const total = files.reduce((sum, f) => sum + statSync(path.join(DEMO_PHOTOS_DIR, f)).size, 0);
    expect(total).toBeLessThan(6 * 1024 * 1024);
    const { properties } = await loadDemoDataset();
    expect(properties.length).toBeGreaterThanOrEqual(33);
  });

  it('serves records written into its tables through the same mapping (the benchmark writes its own)', async () => {
    await writeDemoDataset(db, {
      members: [],
      properties: [
        { ListingKey: 'B1', ListAgentMlsId: 'X', StandardStatus: 'Active', ListPrice: 100000, UnparsedAddress: '1 Main St', City: 'Ocala', StateOrProvince: 'FL' },
        { ListingKey: 'B2', ListAgentMlsId: 'Y', StandardStatus: 'Active', ListPrice: 100000, UnparsedAddress: '2 Main St', City: 'Ocala', StateOrProvince: 'FL' },
      ],
    });
    expect((await provider.listingsForAgent('X')).listings.map((l) => l.mlsId)).toEqual(['B1']);
  });
});
