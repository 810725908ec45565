import { createDb, type Db } from '../../../platform/db/knex';
import { createTestDatabase } from '../../../../test/helpers';
import { SandboxAdPlatform } from './sandbox';

/* The sandbox ad platform pauses and resumes like Meta: a paused campaign delivers nothing while it is paused. */

const DAY = 86_400_000;
let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDb(database.url, { max: 2 });
});
afterAll(async () => {
  await db.destroy();
  await drop();
});

it('delivery stops while paused and picks up where it stopped', async () => {
  const start = new Date('2026-11-01T00:00:00Z');
  let now = start;
  const platform = new SandboxAdPlatform(db, () => now);
  const id = await platform.createCampaign({ name: 'LA#1 · pause test', specialAdCategories: ['HOUSING'], country: 'US', impressionsGoal: 20_000 });
  const adSet = await platform.createAdSet({
    name: 'LA#1 · ad set',
    platformCampaignId: id,
    dailyBudgetCents: 1500,
    startTime: start,
    endTime: new Date(start.getTime() + 20 * DAY),
    targeting: { location: { address: 'Tampa, FL', radiusMiles: 25, label: 'Tampa, FL' }, interests: [] },
  });
  await platform.createAd({ name: 'LA#1 · ad', platformAdSetId: adSet, creativeId: 'sbx_cre_1' });
  const impressionsOf = async (p: SandboxAdPlatform) => (await p.getInsights([{ platformCampaignId: id, since: start }])).campaigns.get(id)!.lifetime.impressions;
  const delivered = () => impressionsOf(platform);

  now = new Date(start.getTime() + 5 * DAY);
  const atPause = await delivered();
  expect(atPause).toBeGreaterThan(0);
  await platform.pauseCampaign(id);
  await platform.pauseCampaign(id); // pausing a paused campaign changes nothing
  now = new Date(start.getTime() + 8 * DAY);
  expect(await delivered()).toBe(atPause);

  await platform.resumeCampaign(id);
  now = new Date(start.getTime() + 10 * DAY);
  // Three paused days delivered nothing: day 10 delivers what day 7 would have.
  const unpaused = new SandboxAdPlatform(db, () => new Date(start.getTime() + 7 * DAY));
  await db('sandboxAdCampaigns').where({ id }).update({ pausedSeconds: 0 });
  const expected = await impressionsOf(unpaused);
  await db('sandboxAdCampaigns').where({ id }).update({ pausedSeconds: 3 * 86_400 });
  expect(await delivered()).toBe(expected);
  await expect(platform.pauseCampaign('sbx_cmp_missing')).rejects.toThrow(/no campaign/);
});
