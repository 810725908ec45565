import nock from 'nock';
import { nockStrict } from '../../../../test/nock-strict';
import { createResoProvider, memberFilter, odataString, retryAfterMs, type ResoProviderOptions } from './reso.provider';
import { MlsProviderError } from './mls-provider';

/*
 * Contract tests against the RESO Web API's documented shapes: OData 4 collections
 * ({ "@odata.context", value: [...], "@odata.nextLink"? }), Data Dictionary field names, and an
 * OAuth2 client-credentials token endpoint ({ access_token, token_type, expires_in }).
 */

const API = 'https://reso.example.com';
const TOKEN = 'https://auth.example.com';

nockStrict();

function property(key: string, extra: Record<string, unknown> = {}) {
  return {
    ListingKey: key,
    StandardStatus: 'Active',
    ListPrice: 350000,
    UnparsedAddress: `${key.replace(/\D/g, '')} Palm Ave`,
    City: 'Orlando',
    StateOrProvince: 'FL',
    PostalCode: '32801',
    ListAgentMlsId: 'A100',
    Media: [{ MediaCategory: 'Photo', MimeType: 'image/jpeg', Order: 1, MediaURL: `https://media.example.com/${key}/1.jpg` }],
    ...extra,
  };
}

const collection = (resource: string, value: unknown[], nextLink?: string) => ({
  '@odata.context': `${API}/odata/$metadata#${resource}`,
  value,
  ...(nextLink ? { '@odata.nextLink': nextLink } : {}),
});

function bearerProvider(extra: Partial<ResoProviderOptions> = {}) {
  return createResoProvider({ baseUrl: `${API}/odata`, bearerToken: 'static-token', sleep: async () => undefined, ...extra });
}

describe('OData helpers', () => {
  it('escapes quotes in string literals and builds a case-insensitive member filter', () => {
    expect(odataString("O'Brien")).toBe("'O''Brien'");
    expect(memberFilter("  dan   O'BRIEN ", 'FL')).toBe(
      "(tolower(MemberFirstName) eq 'dan' and tolower(MemberLastName) eq 'o''brien') and MemberStateOrProvince eq 'FL' and MemberStatus eq 'Active'",
    );
    expect(memberFilter('Mary Ann Smith', 'TX')).toBe(
      "((tolower(MemberFirstName) eq 'mary' and tolower(MemberLastName) eq 'ann smith') or (tolower(MemberFirstName) eq 'mary ann' and tolower(MemberLastName) eq 'smith') or (tolower(MemberFirstName) eq 'mary' and tolower(MemberLastName) eq 'smith')) and MemberStateOrProvince eq 'TX' and MemberStatus eq 'Active'",
    );
    expect(memberFilter('Cher', 'CA')).toBeNull();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3', 0)).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon', 0)).toBeNull();
    expect(retryAfterMs(null, 0)).toBeNull();
  });
});

describe('RESO member search', () => {
  it('filters Member by name, state and active status with the bearer token, and maps the members', async () => {
    let filter = '';
    nock(API, { reqheaders: { authorization: 'Bearer static-token', accept: 'application/json' } })
      .get('/odata/Member')
      .query((q) => {
        filter = String(q.$filter);
        return q.$top === '10';
      })
      .reply(200, collection('Member', [
        { MemberKey: 'k2', MemberMlsId: 'Z900', MemberFirstName: 'Sarah', MemberLastName: 'Johnson', MemberStateOrProvince: 'FL', MemberStatus: 'Active' },
        {
          MemberKey: 'k1', MemberMlsId: 'A100', MemberFirstName: 'Sarah', MemberLastName: 'Johnson', MemberFullName: 'Sarah J. Johnson',
          MemberEmail: 'Sarah@Example.com', MemberPreferredPhone: '(813) 555-0100', MemberStateOrProvince: 'FL', MemberStatus: 'Active', OfficeName: 'Gulf Realty',
        },
        { MemberKey: 'k3', MemberFirstName: 'Sarah', MemberLastName: 'Johnson' }, // no MLS id: unusable
      ]));
    const members = await bearerProvider().searchMembers('  sarah   JOHNSON ', 'FL');
    expect(filter).toBe("(tolower(MemberFirstName) eq 'sarah' and tolower(MemberLastName) eq 'johnson') and MemberStateOrProvince eq 'FL' and MemberStatus eq 'Active'");
    expect(members).toEqual([
      { mlsId: 'A100', name: 'Sarah J. Johnson', state: 'FL', email: 'sarah@example.com', phone: '(813) 555-0100', brokerage: 'Gulf Realty' },
      { mlsId: 'Z900', name: 'Sarah Johnson', state: 'FL', email: null, phone: null, brokerage: null },
    ]);
  });

  it('sends spaces as %20 in the query, as OData expects', async () => {
    let rawPath = '';
    nock(API)
      .get((uri) => {
        rawPath = uri;
        return uri.startsWith('/odata/Member?');
      })
      .reply(200, collection('Member', []));
    await bearerProvider().searchMembers('Ann Lee', 'NY');
    expect(rawPath).toContain('%20eq%20');
    expect(rawPath).not.toContain('+');
  });
});

describe('RESO listings', () => {
  it('asks Property by ListAgentMlsId with Media expanded and follows @odata.nextLink until done', async () => {
    const seen: Record<string, string>[] = [];
    nock(API)
      .get('/odata/Property')
      .query((q) => {
        seen.push(q as Record<string, string>);
        return true;
      })
      .reply(200, collection('Property', [property('P1'), property('P2')], `${API}/odata/Property?$skiptoken=abc`))
      .get('/odata/Property')
      .query({ $skiptoken: 'abc' })
      // A relative nextLink is resolved against the page's URL.
      .reply(200, collection('Property', [property('P3', { StandardStatus: 'Closed', ClosePrice: 340000, ListPrice: 355000 })], 'Property?$skiptoken=def'))
      .get('/odata/Property')
      .query({ $skiptoken: 'def' })
      .reply(200, collection('Property', [property('P4', { StandardStatus: 'Pending' }), { ListingKey: 'P5', StandardStatus: 'Active', City: 'Orlando' }]));

    const batch = await bearerProvider().listingsForAgent("A'100");
    expect(seen[0]).toEqual({ $filter: "ListAgentMlsId eq 'A''100'", $expand: 'Media', $orderby: 'ListingKey', $count: 'true', $top: '1000' });
    expect(batch.listings.map((l) => [l.mlsId, l.status, l.priceCents])).toEqual([
      ['P1', 'active', 35000000],
      ['P2', 'active', 35000000],
      ['P3', 'sold', 34000000],
    ]);
    expect(batch.listings[0].images).toEqual(['https://media.example.com/P1/1.jpg']);
    expect(batch.ignored).toBe(1); // pending
    expect(batch.skipped).toBe(1); // P5 has no address and no price
  });

  it('asks for a large page, and fetches the remaining $skip pages in parallel when the server gives the count', async () => {
    // The server sends at most 2 per page (its own cap) and pages by $skip: 7 records = 4 pages.
    const all = Array.from({ length: 7 }, (_, i) => property(`S${i}`));
    const asked: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    nock(API)
      .get('/odata/Property')
      .query(true)
      .times(4)
      // nock 15 hands a reply function the fetch Request itself.
      .reply(async (req: unknown) => {
        const q = new URL((req as Request).url).searchParams;
        asked.push(`${q.get('$skip') ?? 0}/${q.get('$top')}`);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight--;
        const skip = Number(q.get('$skip') ?? 0);
        const page = all.slice(skip, skip + 2);
        const next = skip + 2 < all.length ? `${API}/odata/Property?$filter=${encodeURIComponent(q.get('$filter')!)}&$expand=Media&$orderby=ListingKey&$top=2&$skip=${skip + 2}` : undefined;
        return [200, { ...collection('Property', page, next), ...(skip === 0 ? { '@odata.count': all.length } : {}) }];
      });
    const batch = await bearerProvider().listingsForAgent('A100');
    expect(batch.listings.map((l) => l.mlsId)).toEqual(all.map((p) => p.ListingKey));
    expect(asked[0]).toBe('0/1000');
    expect(asked.slice(1).sort()).toEqual(['2/2', '4/2', '6/2']);
    expect(maxInFlight).toBe(3); // the three remaining pages were asked for at once
  });

  it('stops at the page cap', async () => {
    nock(API)
      .get('/odata/Property')
      .query(true)
      .times(2)
      .reply(200, () => collection('Property', [property(`P${Math.random().toString().slice(2, 8)}`)], `${API}/odata/Property?$skiptoken=more`));
    const batch = await bearerProvider({ maxPages: 2 }).listingsForAgent('A100');
    expect(batch.listings).toHaveLength(2);
  });

  it('refuses a nextLink to another host (the bearer token would go with it)', async () => {
    nock(API).get('/odata/Property').query(true).reply(200, collection('Property', [property('P1')], 'https://evil.example.net/odata/Property?$skiptoken=x'));
    await expect(bearerProvider().listingsForAgent('A100')).rejects.toThrow(/another host/);
  });
});

describe('OAuth2 client credentials', () => {
  function oauthProvider(clock: { t: number }) {
    return createResoProvider({
      baseUrl: `${API}/odata/`,
      tokenUrl: `${TOKEN}/oauth/token`,
      clientId: 'client-1',
      clientSecret: 's3cret',
      sleep: async () => undefined,
      now: () => clock.t,
    });
  }

  it('fetches a token with the client credentials, reuses it, and refreshes it before it expires', async () => {
    const clock = { t: 1_000_000 };
    const bodies: string[] = [];
    nock(TOKEN, { reqheaders: { 'content-type': 'application/x-www-form-urlencoded' } })
      .post('/oauth/token', (body) => {
        bodies.push(new URLSearchParams(body as unknown as Record<string, string>).toString());
        return true;
      })
      .reply(200, { access_token: 'tok-1', token_type: 'Bearer', expires_in: 3600 })
      .post('/oauth/token')
      .reply(200, { access_token: 'tok-2', token_type: 'Bearer', expires_in: 3600 });
    nock(API, { reqheaders: { authorization: 'Bearer tok-1' } }).get('/odata/Member').query(true).times(2).reply(200, collection('Member', []));
    nock(API, { reqheaders: { authorization: 'Bearer tok-2' } }).get('/odata/Member').query(true).reply(200, collection('Member', []));

    const provider = oauthProvider(clock);
    await provider.searchMembers('Ann Lee', 'NY');
    clock.t += 30 * 60_000; // half an hour later: the cached token is still good
    await provider.searchMembers('Ann Lee', 'NY');
    clock.t += 29 * 60_000 + 1; // within a minute of expiry: refreshed first
    await provider.searchMembers('Ann Lee', 'NY');
    expect(bodies[0]).toBe('grant_type=client_credentials&client_id=client-1&client_secret=s3cret');
  });

  it('gets a new token once when the API answers 401, then retries the call', async () => {
    const clock = { t: 0 };
    nock(TOKEN)
      .post('/oauth/token')
      .reply(200, { access_token: 'revoked', expires_in: 3600 })
      .post('/oauth/token')
      .reply(200, { access_token: 'fresh', expires_in: 3600 });
    nock(API, { reqheaders: { authorization: 'Bearer revoked' } }).get('/odata/Property').query(true).reply(401, { error: 'invalid_token' });
    nock(API, { reqheaders: { authorization: 'Bearer fresh' } }).get('/odata/Property').query(true).reply(200, collection('Property', [property('P1')]));
    const batch = await oauthProvider(clock).listingsForAgent('A100');
    expect(batch.listings).toHaveLength(1);
  });

  it('fails cleanly when the fresh token is refused too (no loop)', async () => {
    nock(TOKEN).post('/oauth/token').times(2).reply(200, { access_token: 'nope', expires_in: 3600 });
    nock(API).get('/odata/Member').query(true).times(2).reply(401, 'Unauthorized');
    await expect(oauthProvider({ t: 0 }).searchMembers('Ann Lee', 'NY')).rejects.toThrow(/answered 401/);
  });

  it('turns a token endpoint without access_token into a provider error', async () => {
    nock(TOKEN).post('/oauth/token').reply(400, { error: 'invalid_client' });
    await expect(oauthProvider({ t: 0 }).searchMembers('Ann Lee', 'NY')).rejects.toBeInstanceOf(MlsProviderError);
  });

  it('needs either a bearer token or the full client credentials', () => {
    expect(() => createResoProvider({ baseUrl: API, clientId: 'x', clientSecret: 'y' })).toThrow(/RESO_TOKEN_URL/);
  });
});

describe('retries', () => {
  it('waits as long as Retry-After says after a 429, then succeeds', async () => {
    const waits: number[] = [];
    nock(API)
      .get('/odata/Member')
      .query(true)
      .reply(429, 'slow down', { 'Retry-After': '2' })
      .get('/odata/Member')
      .query(true)
      .reply(200, collection('Member', [{ MemberMlsId: 'A100', MemberFirstName: 'Ann', MemberLastName: 'Lee', MemberStateOrProvince: 'NY', MemberStatus: 'Active' }]));
    const members = await bearerProvider({ sleep: async (ms) => void waits.push(ms) }).searchMembers('Ann Lee', 'NY');
    expect(waits).toEqual([2000]);
    expect(members.map((m) => m.mlsId)).toEqual(['A100']);
  });

  it('backs off on 5xx without Retry-After and gives up after the retry budget', async () => {
    const waits: number[] = [];
    nock(API).get('/odata/Member').query(true).times(3).reply(503, 'maintenance');
    const provider = bearerProvider({ maxRetries: 2, sleep: async (ms) => void waits.push(ms) });
    await expect(provider.searchMembers('Ann Lee', 'NY')).rejects.toThrow(/answered 503/);
    expect(waits).toEqual([250, 500]);
  });

  it('does not wait longer than its maximum: a long Retry-After fails at once', async () => {
    const waits: number[] = [];
    nock(API).get('/odata/Member').query(true).reply(429, '', { 'Retry-After': '120' });
    const provider = bearerProvider({ maxRetryDelayMs: 5000, sleep: async (ms) => void waits.push(ms) });
    await expect(provider.searchMembers('Ann Lee', 'NY')).rejects.toThrow(/retry after 120 s/);
    expect(waits).toEqual([]);
  });
});

describe('broken payloads are clean provider errors', () => {
  it.each([
    ['a non-JSON body', (s: nock.Interceptor) => s.reply(200, '<html>Service Unavailable</html>', { 'Content-Type': 'text/html' }), /not JSON/],
    ['JSON without a value array', (s: nock.Interceptor) => s.reply(200, { '@odata.context': 'x', results: [] }), /no "value" array/],
    ['a value that is not an array', (s: nock.Interceptor) => s.reply(200, { value: { ListingKey: 'P1' } }), /no "value" array/],
    ['a 404', (s: nock.Interceptor) => s.reply(404, { error: { code: '404', message: 'Not found' } }), /answered 404: Not found$/],
    ['a refused query, in the server\'s words', (s: nock.Interceptor) => s.reply(400, { error: { code: '400', message: "Invalid $filter: unknown property 'Foo'" } }), /answered 400: Invalid \$filter: unknown property 'Foo'$/],
    ['an error body that is not OData\'s', (s: nock.Interceptor) => s.reply(400, '<html>Bad Request</html>', { 'Content-Type': 'text/html' }), /answered 400$/],
    ['a dropped connection', (s: nock.Interceptor) => s.replyWithError('socket hang up'), /Property/],
  ])('%s', async (_label, reply, message) => {
    reply(nock(API).get('/odata/Property').query(true));
    const err = await bearerProvider().listingsForAgent('A100').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MlsProviderError);
    expect((err as Error).message).toMatch(message);
  });
});
