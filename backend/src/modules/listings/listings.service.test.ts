import { createTestContext, type TestContext } from '../../../test/helpers';
import { listAgentListings, upsertMlsListings, UPSERT_CHUNK_SIZE, type MlsListingInput } from './listings.service';
import { centsToPrice, formatBathrooms, formatDateOnly, priceToCents } from './listing-values';

let t: TestContext;
let agentId: number;
beforeAll(async () => {
  t = await createTestContext();
  [{ id: agentId }] = await t.db('agents').insert({ name: 'Bulk Agent', state: 'FL', source: 'mls', mlsSystem: 'demo', mlsId: 'BULK1' }).returning('id');
});
afterAll(() => t.close());

function listing(i: number, extra: Partial<MlsListingInput> = {}): MlsListingInput {
  return {
    mlsId: `K${i}`,
    address: `${i} Main St`,
    city: 'Ocala',
    state: 'FL',
    postalCode: '34470',
    priceCents: 25_000_000 + i * 100,
    bedrooms: 3,
    bathrooms: '2.0',
    squareFeet: 1500,
    status: i % 3 === 0 ? 'sold' : 'active',
    imageUrl: `https://media.example.com/${i}.jpg`,
    images: [`https://media.example.com/${i}.jpg`],
    description: 'A listing',
    lotSize: '0.25',
    lotSizeSqFt: 10890,
    yearBuilt: 2001,
    garageSpaces: 2,
    propertyType: 'Single Family Residence',
    amenities: { cooling: ['Central Air'] },
    elementarySchool: null,
    middleSchool: null,
    highSchool: null,
    schoolDistrict: null,
    latitude: 29.18,
    longitude: -82.14,
    listDate: '2026-10-01',
    soldDate: i % 3 === 0 ? '2026-10-20' : null,
    daysOnMarket: 5,
    originatingSystemName: 'Test MLS',
    mlsCompliance: { mlsName: 'Test MLS' },
    ...extra,
  };
}

async function countInserts(run: () => Promise<unknown>): Promise<number> {
  let inserts = 0;
  const onQuery = (q: { sql: string }) => {
    if (q.sql.startsWith('insert into "listings"')) inserts++;
  };
  t.db.on('query', onQuery);
  try {
    await run();
  } finally {
    t.db.off('query', onQuery);
  }
  return inserts;
}

describe('upsertMlsListings', () => {
  it('writes many listings in one statement per chunk, and a second load updates the same rows', async () => {
    const n = UPSERT_CHUNK_SIZE * 2 + 1;
    const first = Array.from({ length: n }, (_, i) => listing(i));
    expect(await countInserts(() => t.db.transaction((trx) => upsertMlsListings(trx, agentId, first)))).toBe(3);
    expect(await t.db('listings').where({ agentId }).count({ n: '*' }).first()).toEqual({ n: String(n) });

    const second = first.map((l) => ({ ...l, priceCents: l.priceCents + 1, images: [...l.images, 'https://media.example.com/extra.jpg'] }));
    await t.db.transaction((trx) => upsertMlsListings(trx, agentId, second));
    expect(await t.db('listings').where({ agentId }).count({ n: '*' }).first()).toEqual({ n: String(n) });
    const row = await t.db('listings').where({ agentId, mlsId: 'K7' }).first();
    expect(row.priceCents).toBe(String(25_000_000 + 700 + 1));
    expect(row.images).toEqual(['https://media.example.com/7.jpg', 'https://media.example.com/extra.jpg']);
  });

  it('keeps the last record when the MLS sends a key twice (one statement cannot update a row twice)', async () => {
    const written = await t.db.transaction((trx) => upsertMlsListings(trx, agentId, [listing(5000, { city: 'First' }), listing(5000, { city: 'Second' })]));
    expect(written).toBe(1);
    expect((await t.db('listings').where({ agentId, mlsId: 'K5000' }).first()).city).toBe('Second');
  });

  it('rolls back with the transaction', async () => {
    await expect(
      t.db.transaction(async (trx) => {
        await upsertMlsListings(trx, agentId, [listing(6000)]);
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await t.db('listings').where({ agentId, mlsId: 'K6000' }).first()).toBeUndefined();
  });

  it('reads an agent’s listings back active first, in a single query', async () => {
    let queries = 0;
    const onQuery = () => queries++;
    t.db.on('query', onQuery);
    const rows = await listAgentListings(agentId);
    t.db.off('query', onQuery);
    expect(queries).toBe(1);
    const firstSold = rows.findIndex((r) => r.status === 'sold');
    expect(rows.slice(firstSold).every((r) => r.status === 'sold')).toBe(true);
  });
});

describe('listing values', () => {
  it('converts between price strings and cents', () => {
    expect(priceToCents('450000')).toBe(45_000_000);
    expect(priceToCents('450000.5')).toBe(45_000_050);
    expect(priceToCents('0.07')).toBe(7);
    expect(centsToPrice(45_000_000)).toBe('450000');
    expect(centsToPrice('45000050')).toBe('450000.50');
    expect(centsToPrice(9_999_999_999)).toBe('99999999.99');
  });

  it('formats bathrooms and dates for the wire', () => {
    expect(formatBathrooms('2.00')).toBe('2.0');
    expect(formatBathrooms('2.50')).toBe('2.5');
    expect(formatBathrooms('2.25')).toBe('2.25');
    expect(formatBathrooms(null)).toBeNull();
    expect(formatDateOnly(new Date(2026, 0, 5))).toBe('2026-01-05');
    expect(formatDateOnly('2026-03-04')).toBe('2026-03-04');
  });
});
