import nock from 'nock';
import { createTestContext, type TestContext } from '../../../test/helpers';

/** The routes with the RESO Web API configured (static bearer), answered by nock. */
const API = 'https://reso.example.com';

let t: TestContext;
beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  t = await createTestContext({ env: { RESO_BASE_URL: `${API}/odata`, RESO_BEARER_TOKEN: 'bearer-for-tests' } });
});
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(async () => {
  await t.close();
  nock.enableNetConnect();
  // nock patches node's shared net/http modules: unpatch them, or the next test file in this worker inherits them.
  nock.restore();
});

const member = {
  MemberKey: 'K1',
  MemberMlsId: 'R2001',
  MemberFirstName: 'Alex',
  MemberLastName: "O'Neil",
  MemberEmail: 'alex@example.com',
  MemberStateOrProvince: 'GA',
  MemberStatus: 'Active',
};

function searchReplies(value: unknown[]) {
  nock(API, { reqheaders: { authorization: 'Bearer bearer-for-tests' } })
    .get('/odata/Member')
    .query((q) => String(q.$filter).includes("tolower(MemberLastName) eq 'o''neil'") && String(q.$filter).includes("MemberStateOrProvince eq 'GA'"))
    .reply(200, { value });
}

async function foundAgent() {
  const browser = t.newSession();
  searchReplies([member]);
  const { body: found } = await browser.post('/api/mls/search-agent').send({ name: "alex o'neil", state: 'GA' }).expect(200);
  expect(found).toEqual({ name: "Alex O'Neil", state: 'GA', email: 'alex@example.com', mlsId: 'R2001' });
  // One agent per member: made by the first test that finds it, the same one after (200).
  const created = await browser.post('/api/agents').send(found);
  expect([200, 201]).toContain(created.status);
  return { browser, agent: created.body };
}

it('runs search → create → load against a RESO Web API, across pages', async () => {
  expect(t.config.providers.mls).toBe('reso');
  const { browser, agent } = await foundAgent();
  const listing = (key: string, status: string) => ({
    ListingKey: key,
    StandardStatus: status,
    ListPrice: 410000,
    ClosePrice: status === 'Closed' ? 399000 : undefined,
    StreetNumber: '18',
    StreetName: 'Peachtree',
    StreetSuffix: 'Cir',
    City: 'Atlanta',
    StateOrProvince: 'GA',
    ListAgentMlsId: 'R2001',
    Media: [{ MediaCategory: 'Photo', Order: 1, MediaURL: `https://media.example.com/${key}.jpg` }],
  });
  nock(API)
    .get('/odata/Property')
    .query({ $filter: "ListAgentMlsId eq 'R2001'", $expand: 'Media', $orderby: 'ListingKey', $count: 'true', $top: '1000' })
    .reply(200, { value: [listing('GA1', 'Active'), { ListingKey: 'GA-broken', StandardStatus: 'Active' }], '@odata.nextLink': `${API}/odata/Property?$skiptoken=2` })
    .get('/odata/Property')
    .query({ $skiptoken: '2' })
    .reply(200, { value: [listing('GA2', 'Closed')] });
  const res = await browser.post('/api/mls/load').send({ agentId: agent.id, mlsId: 'R2001' }).expect(200);
  expect(res.body).toEqual({ loaded: 2, skipped: 1 });
  const { body } = await browser.get(`/api/agents/${agent.id}/listings`).expect(200);
  expect(body.listings.map((l: { mlsId: string; price: string; address: string }) => [l.mlsId, l.price, l.address])).toEqual([
    ['GA1', '410000', '18 Peachtree Cir'],
    ['GA2', '399000', '18 Peachtree Cir'],
  ]);
});

it('answers 502 with allowManualEntry when the MLS sends something that is not JSON', async () => {
  const { browser, agent } = await foundAgent();
  nock(API).get('/odata/Property').query(true).reply(200, '<html>Gateway error</html>', { 'Content-Type': 'text/html' });
  const res = await browser.post('/api/mls/load').send({ agentId: agent.id, mlsId: 'R2001' }).expect(502);
  expect(res.body).toEqual({
    message: 'The MLS is not answering right now. Please try again in a moment, or enter your listing manually.',
    code: 'mls.provider_unavailable',
    allowManualEntry: true,
  });
});

it('answers 502 when the agent search cannot reach the MLS, and 404 when the MLS finds nobody', async () => {
  nock(API).get('/odata/Member').query(true).reply(403, { error: 'forbidden' });
  const failed = await t.request.post('/api/mls/search-agent').send({ name: 'Alex ONeil', state: 'GA' }).expect(502);
  expect(failed.body.code).toBe('mls.provider_unavailable');
  searchReplies([]);
  const none = await t.request.post('/api/mls/search-agent').send({ name: "Alex O'Neil", state: 'GA' }).expect(404);
  expect(none.body.message).toBe('No active agent found for "Alex O\'Neil" in GA');
});
