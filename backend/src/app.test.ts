import { createTestContext, type TestContext } from '../test/helpers';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('platform routes', () => {
  it('answers liveness and readiness', async () => {
    await t.request.get('/api/health').expect(200, { status: 'ok' });
    const ready = await t.request.get('/api/ready').expect(200);
    expect(ready.body).toEqual({ status: 'ready', database: true, jobs: true });
  });

  it('serves the runtime config with remote URLs and providers, and no secrets', async () => {
    const res = await t.request.get('/api/runtime-config').expect(200);
    expect(res.body.remotes).toEqual({
      dashboard: { entry: '/remotes/dashboard/remoteEntry.js' },
      admin: { entry: '/remotes/admin/remoteEntry.js' },
    });
    expect(res.body.providers).toMatchObject({ mls: 'demo', ads: 'sandbox', payments: 'local', database: 'postgres' });
    expect(res.body.googleLoginEnabled).toBe(false);
    expect(res.body.leadGenerationUrl).toBe('/overview');
    expect(JSON.stringify(res.body)).not.toContain(t.config.SESSION_SECRET!);
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.request.get('/api/nope').expect(404);
    expect(res.body).toEqual({ message: 'No route for GET /api/nope', code: 'route.not_found' });
  });

  it('sets security headers and a request id', async () => {
    const res = await t.request.get('/api/runtime-config').set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toBe('abc-123');
    // A JSON answer: the API set (nothing in it may run, be framed or be read across origins).
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['x-dns-prefetch-control']).toBeUndefined();
    // So is an error answered as JSON.
    const missing = await t.request.get('/api/nope').expect(404);
    expect(missing.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    // An HTML page under /api gets the document set, whole: its CSP lets it load its own styles.
    const docs = await t.request.get('/api/docs').expect(200);
    expect(docs.headers['content-type']).toMatch(/^text\/html/);
    expect(docs.headers['content-security-policy']).toContain("default-src 'self'");
    expect(docs.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(docs.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(docs.headers['x-dns-prefetch-control']).toBe('off');
    // Anything else is a document.
    const page = await t.request.get('/listing/NOPE-0');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const made = await t.request.get('/api/runtime-config').set('X-Request-Id', 'bad id with spaces');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers the liveness probe before every other layer: no session cookie, no request id, not cached', async () => {
    const res = await t.request.get('/api/health').expect(200, { status: 'ok' });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['x-request-id']).toBeUndefined();
    await t.request.head('/api/health').expect(200);
    await t.request.post('/api/health').expect(405);
  });
});

describe('bad input never becomes a 500', () => {
  it('malformed JSON is a 400', async () => {
    const res = await t.request.post('/api/agents').set('Content-Type', 'application/json').send('{"name": "A",');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('request.malformed_json');
    expect(res.body.message).toEqual(expect.any(String));
  });

  it('a JSON scalar body is a 400, not a crash', async () => {
    const res = await t.request.post('/api/agents').set('Content-Type', 'application/json').send('"just a string"');
    expect(res.status).toBe(400);
  });

  it('wrong types are a 400 with field messages', async () => {
    const res = await t.request.post('/api/agents').send({ name: 42, state: ['FL'], manualEntry: true });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('request.invalid');
    expect(res.body.fields).toEqual({ name: 'Name is required', state: 'State is required' });
  });

  it('a body over the limit is a 413', async () => {
    const res = await t.request.post('/api/agents').send({ name: 'x'.repeat(1024 * 1024 + 10), state: 'FL', manualEntry: true });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('request.too_large');
  });

  it('a malformed id in the path is a 400', async () => {
    const res = await t.request.get('/api/agents/abc');
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty('id');
  });
});

describe('CSRF defence', () => {
  it('refuses a cross-site POST by Sec-Fetch-Site', async () => {
    const res = await t.request
      .post('/api/agents')
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ name: 'Eve', state: 'FL', manualEntry: true });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('request.cross_site');
    expect(await t.db('agents').count({ n: '*' }).first()).toEqual({ n: '0' });
  });

  it('refuses a POST from another Origin', async () => {
    const res = await t.request.post('/api/admin/login').set('Origin', 'https://evil.example').send({ password: 'x' });
    expect(res.status).toBe(403);
  });

  it('accepts a same-origin POST', async () => {
    const res = await t.request
      .post('/api/agents')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Origin', 'http://127.0.0.1')
      .set('Host', '127.0.0.1')
      .send({ name: 'Ann Lee', state: 'FL', manualEntry: true });
    expect(res.status).toBe(201);
  });

  it('exempts the provider webhook path (it is verified by signature instead)', async () => {
    const res = await t.request.post('/api/webhooks/stripe').set('Sec-Fetch-Site', 'cross-site').send({});
    expect(res.status).not.toBe(403);
  });
});
