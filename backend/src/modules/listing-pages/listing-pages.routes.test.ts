import { createTestContext, type TestContext } from '../../../test/helpers';
import { insertListingWithDraftCampaign, wizardBrowser } from '../../../test/factories';
import { markCampaignPaid } from '../campaigns';
import { CookieKeys } from '../../platform/http/cookie-keys';
import { LEAD_MIN_FILL_MS } from '@app/contracts';
import { FORM_TOKEN_STEP_MS, LeadFormTokens } from '../leads';

// Renders with the built page entry (frontend-host/dist-ssr): `node scripts/build.mjs` first (npm test does).
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ env: { PUBLIC_URL: 'https://homes.example.com' } });
});
afterAll(() => t.close());

const DATA = /<script type="application\/json" id="listing-page-data">([\s\S]*?)<\/script>/;

describe('GET /listing/:mlsId (server-rendered)', () => {
  it('is complete HTML without JavaScript: price, address, OG + Twitter tags, JSON-LD, compliance, Equal Housing', async () => {
    const { mlsId } = await insertListingWithDraftCampaign(t.db, {}, {
      postalCode: '33602',
      squareFeet: 1800,
      mlsCompliance: JSON.stringify({ mlsName: 'Stellar MLS', brokerage: 'Bay Realty', broker: 'Pat Broker', disclaimer: 'Deemed reliable.' }),
    });
    const res = await t.request.get(`/listing/${mlsId}`).expect(200);
    expect(res.type).toBe('text/html');
    const html = res.text;
    expect(html).toContain('$450,000');
    expect(html).toContain('12 Palm Ave, Tampa, FL 33602');
    expect(html).toContain(`<link rel="canonical" href="https://homes.example.com/listing/${mlsId}">`);
    expect(html).toContain(`<meta property="og:url" content="https://homes.example.com/listing/${mlsId}">`);
    expect(html).toContain('<meta property="og:title" content="$450,000 · 12 Palm Ave, Tampa, FL 33602">');
    expect(html).toContain(`<meta property="og:image" content="https://homes.example.com/og/listing/${mlsId}.jpg">`);
    expect(html).toContain('<meta property="og:image:width" content="1200">');
    expect(html).toContain('<meta property="og:image:height" content="630">');
    expect(html).toContain('<meta property="og:type" content="website">');
    expect(html).toMatch(/<meta property="og:description" content="\$450,000 · 3 bd[^"]*">/);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).toContain('Listing courtesy of <!-- -->Bay Realty');
    expect(html).toContain('Equal Housing Opportunity');
    expect(html).toContain('We are pledged to the letter and spirit of U.S. policy');
    for (const section of ['About This Property', 'Overview', 'Property Features', 'Schools', 'Location', 'Contact Agent', 'Schedule a Tour']) {
      expect(html).toContain(section);
    }
    expect(html).toContain('https://www.openstreetmap.org/export/embed.html?bbox=-82.4672,27.9406,-82.4472,27.9606');
    // The map frame loads when scrolled near (data-src); without JavaScript, its <noscript> copy loads.
    expect(html).toMatch(/<iframe class="lp-map"[^>]* data-src="https:\/\/www\.openstreetmap\.org\/export\/embed\.html\?bbox=/);
    expect(html).toMatch(/<noscript>.*<iframe class="lp-map"[^>]* src="https:\/\/www\.openstreetmap\.org\/export\/embed\.html\?bbox=.*<\/noscript>/s);
    // At load only the small entry runs; the app it starts on the first interaction is named, not preloaded.
    const entry = /<script type="module" src="(\/listing-assets\/listing-[\w-]+\.js)" data-app="(\/listing-assets\/hydrate-[\w-]+\.js)"><\/script>/.exec(html);
    expect(entry).not.toBeNull();
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain('<link rel="preload" as="image" href="/demo-mls/photos/exterior-01.jpg" fetchpriority="high">');
    expect(html).toMatch(/<img[^>]+width="1280" height="960"[^>]+src="\/demo-mls\/photos\/exterior-01.jpg"|<img[^>]+src="\/demo-mls\/photos\/exterior-01.jpg"[^>]+width="1280"/);

    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'RealEstateListing',
      url: `https://homes.example.com/listing/${mlsId}`,
      about: { '@type': 'SingleFamilyResidence', address: { streetAddress: '12 Palm Ave', addressLocality: 'Tampa', addressRegion: 'FL', postalCode: '33602' } },
      offers: { '@type': 'Offer', price: '450000', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });
    // The inlined data carries a fresh form token, never the placeholder.
    const data = JSON.parse(DATA.exec(html)![1]);
    expect(data).toMatchObject({ kind: 'listing', mlsId, response: { listing: { mlsId } } });
    expect(data.formToken).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(res.headers.etag).toMatch(/^W\/"/);
    expect(html).not.toContain('noindex');
  });

  it('cannot be broken out of by </script> in a listing description', async () => {
    const evil = '</script><script>window.pwned=1</script><!-- \u2028 & <b>bold</b>';
    const { mlsId } = await insertListingWithDraftCampaign(t.db, {}, { description: evil });
    const html = (await t.request.get(`/listing/${mlsId}`).expect(200)).text;
    expect(html).not.toContain('<script>window.pwned=1</script>');
    // Exactly the page's own script elements: the JSON-LD, the module entry, the inlined data.
    expect(html.match(/<script\b/g)).toHaveLength(3);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    const data = JSON.parse(DATA.exec(html)![1]);
    expect(data.response.listing.description).toBe(evil);
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]);
    expect(ld.description).toBe(evil);
    // In the visible page it is text, escaped by React.
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;');
  });

  it('carries a form token of its render time (cut to the step), valid for its listing, fresh on every view', async () => {
    const { mlsId } = await insertListingWithDraftCampaign(t.db);
    const tokens = new LeadFormTokens(t.config.SESSION_SECRET!);
    const pages = [];
    for (let i = 0; i < 3; i++) {
      const before = Date.now();
      const html = (await t.request.get(`/listing/${mlsId}`).expect(200)).text;
      const after = Date.now();
      pages.push({ before, after, token: JSON.parse(DATA.exec(html)![1]).formToken as string });
      // Served from the render cache: the token is still the time of this view, not of the cached render.
      await new Promise((r) => setTimeout(r, 2 * FORM_TOKEN_STEP_MS));
    }
    for (const { before, after, token } of pages) {
      const at = parseInt(token.split('.')[0], 36);
      expect(at).toBeGreaterThan(before - FORM_TOKEN_STEP_MS);
      expect(at).toBeLessThanOrEqual(after);
      expect(tokens.check(token, mlsId, after + LEAD_MIN_FILL_MS)).toEqual({ result: 'ok' });
      expect(tokens.check(token, 'OTHER1', after + LEAD_MIN_FILL_MS)).toEqual({ result: 'invalid' });
    }
    expect(new Set(pages.map((p) => p.token)).size).toBe(3);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const { mlsId } = await insertListingWithDraftCampaign(t.db);
    const first = await t.request.get(`/listing/${mlsId}`).expect(200);
    const again = await t.request.get(`/listing/${mlsId}`).set('If-None-Match', first.headers.etag).expect(304);
    expect(again.text).toBe('');
  });

  it('redirects MANUAL- ids to /manual-listing (302)', async () => {
    const res = await t.request.get('/listing/MANUAL-1712345678901').expect(302);
    expect(res.headers.location).toBe('/manual-listing/MANUAL-1712345678901');
  });

  it('answers 404 "Property Not Found" with noindex for a missing listing', async () => {
    for (const path of ['/listing/NOPE404', '/manual-listing/MANUAL-1', `/listing/${encodeURIComponent('bad id')}`]) {
      const res = await t.request.get(path).expect(404);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain('<title>Property Not Found</title>');
      expect(res.text).toContain('<meta name="robots" content="noindex">');
      expect(res.text).toContain('The listing you&#x27;re looking for could not be found.');
      expect(res.text).toContain('Return Home');
      expect(res.headers['x-robots-tag']).toBe('noindex');
    }
  });
});

describe('GET /manual-listing/:mlsId', () => {
  it('renders the manual listing with the paid campaign description, without the TCPA notice', async () => {
    const { agent, listing } = await wizardBrowser(t.newSession(), { listing: { images: ['https://photos.example.com/1.jpg', 'https://photos.example.com/2.jpg'] } });
    await t.db('agents').where({ id: agent.id }).update({ email: 'dana@example.com', phone: '+1 813 555 0142 x12' });
    const before = (await t.request.get(`/manual-listing/${listing.mlsId}`).expect(200)).text;
    expect(before).toContain('$450,000');
    expect(before).toContain('Get More Information');
    expect(before).toContain('<a class="lp-button" href="mailto:dana@example.com">Email Agent</a>');
    // libphonenumber-js: the extension is shown and dialled as one, not run into the number (tel:+1813555014212).
    expect(before).toContain('<a class="lp-button" href="tel:+18135550142;ext=12">(813) 555-0142 ext. 12</a>');
    expect(before).not.toContain('tel:+1813555014212');
    expect(before).toContain('Equal Housing Opportunity');
    expect(before).not.toContain('autodialer');

    const [campaign] = await t
      .db('campaigns')
      .insert({ agentId: listing.agentId, listingId: listing.id, templateType: 'just-listed', budgetCents: 9_900, impressionsRequested: 5_000, description: 'Campaign words about the home.' })
      .returning('id');
    await t.db.transaction((trx) => markCampaignPaid(trx, t.queue, campaign.id, 'test'));
    // The render cache keeps a page 5 s; a new process-free check goes through the API instead.
    const api = await t.request.get(`/api/listings/${listing.mlsId}/campaign`).expect(200);
    expect(api.body.description).toBe('Campaign words about the home.');
  });
});

describe('GET /og/listing/:mlsId.jpg', () => {
  it('is a 1200×630 JPEG, the same file on the second request', async () => {
    const { mlsId } = await insertListingWithDraftCampaign(t.db);
    const res = await t.request.get(`/og/listing/${mlsId}.jpg`).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    }).expect(200);
    expect(res.type).toBe('image/jpeg');
    const sharp = (await import('sharp')).default;
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([1200, 630, 'jpeg']);
    const again = await t.request.get(`/og/listing/${mlsId}.jpg`).expect(200);
    expect(again.headers.etag).toBe(res.headers.etag);
    await t.request.get('/og/listing/NOPE.jpg').expect(404);
  });
});

describe('public pages and the session', () => {
  it('read no session: a buyer who also has a session cookie costs no session read', async () => {
    // A stored session this process has never seen (nothing cached), and the cookie naming it, signed.
    const sid = 'a0a0a0a0-0000-4000-8000-000000000001';
    await t.db('sessions').insert({ sid, data: JSON.stringify({ agentId: 1 }), expiresAt: new Date(Date.now() + 60_000), updatedAt: new Date() });
    const keys = new CookieKeys([t.config.SESSION_SECRET!]);
    const cookie = `la.sid=${sid}; la.sid.sig=${keys.sign(`la.sid=${sid}`)}`;
    const sessionReads: string[] = [];
    const onQuery = (q: { sql?: string }) => {
      if (q.sql && /\bsessions\b/.test(q.sql)) sessionReads.push(q.sql);
    };
    t.db.on('query', onQuery);
    try {
      const page = await t.request.get('/listing/NOPE404').set('Cookie', cookie);
      expect(page.status).toBe(404);
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(sessionReads).toEqual([]);
      // The same cookie on an API route is read from the table: the check above can see a read.
      await t.request.get('/api/agents/1').set('Cookie', cookie);
      expect(sessionReads.length).toBeGreaterThan(0);
    } finally {
      t.db.off('query', onQuery);
    }
  });
});

describe('without PUBLIC_URL (development): absolute URLs never come from request headers (L1)', () => {
  let dev: TestContext;
  beforeAll(async () => {
    // Behind a proxy that is trusted, so X-Forwarded-Host would count if anything read it.
    dev = await createTestContext({ env: { TRUST_PROXY: 'true', PORT: '4123' } });
  });
  afterAll(() => dev.close());

  it('builds canonical, Open Graph and JSON-LD URLs from this server on localhost, whatever Host and X-Forwarded-Host say', async () => {
    const { mlsId } = await insertListingWithDraftCampaign(dev.db);
    for (const headers of [{ Host: 'evil.example' }, { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' }, {}]) {
      const html = (await dev.request.get(`/listing/${mlsId}`).set(headers).expect(200)).text;
      expect(html).not.toContain('evil.example');
      expect(html).toContain(`<link rel="canonical" href="http://localhost:4123/listing/${mlsId}">`);
      expect(html).toContain(`<meta property="og:image" content="http://localhost:4123/og/listing/${mlsId}.jpg">`);
      expect(JSON.parse(DATA.exec(html)![1]).pageUrl).toBe(`http://localhost:4123/listing/${mlsId}`);
    }
  });
});
