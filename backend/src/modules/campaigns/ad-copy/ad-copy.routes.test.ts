import nock from 'nock';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { wizardBrowser, type Session } from '../../../../test/factories';
import { checkFairHousing } from '../fair-housing/fair-housing';
import { AI_CALLS_PER_SESSION_PER_MINUTE } from './ad-copy.routes';


/** A wizard browser with a manual agent and one listing, made through the API. */
const wizard = (t: TestContext, status: 'active' | 'sold' = 'active', session: Session = t.newSession()) =>
  wizardBrowser(session, { listing: { status } });

describe('with the built-in copywriter (no OPENAI_API_KEY)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    expect(t.config.providers.ai).toBe('builtin');
  });
  afterAll(() => t.close());

  const optimize = (session: Session, listingId: number, body: object) => session.post(`/api/listings/${listingId}/optimize-ad-copy`).send(body);

  it('writes copy from the listing for its owner', async () => {
    const { session, listing } = await wizard(t);
    const res = await optimize(session, listing.id, { templateType: 'just-listed' }).expect(200);
    expect(Object.keys(res.body)).toEqual(['optimizedCopy']);
    expect(res.body.optimizedCopy).toContain('Tampa');
    expect(res.body.optimizedCopy).toContain('3-bed');
    expect(res.body.optimizedCopy).toContain('$450,000');
    expect(checkFairHousing(res.body.optimizedCopy)).toEqual([]);
  });

  it('writes different copy for just-sold', async () => {
    const { session, listing } = await wizard(t, 'sold');
    const listed = await optimize(session, listing.id, { templateType: 'just-listed' }).expect(200);
    const sold = await optimize(session, listing.id, { templateType: 'just-sold' }).expect(200);
    expect(sold.body.optimizedCopy).not.toBe(listed.body.optimizedCopy);
    expect(sold.body.optimizedCopy).toMatch(/sold/i);
  });

  it('gives a different variant on each refresh, and the first copy again without refresh', async () => {
    const { session, listing } = await wizard(t);
    const first = (await optimize(session, listing.id, { templateType: 'just-listed' }).expect(200)).body.optimizedCopy;
    const r1 = (await optimize(session, listing.id, { templateType: 'just-listed', refresh: true }).expect(200)).body.optimizedCopy;
    const r2 = (await optimize(session, listing.id, { templateType: 'just-listed', refresh: true }).expect(200)).body.optimizedCopy;
    const r3 = (await optimize(session, listing.id, { templateType: 'just-listed', refresh: true }).expect(200)).body.optimizedCopy;
    expect(r1).not.toBe(first);
    expect(r2).not.toBe(r1);
    expect(r3).not.toBe(r2);
    expect(new Set([first, r1, r2, r3]).size).toBe(4);
    expect((await optimize(session, listing.id, { templateType: 'just-listed' }).expect(200)).body.optimizedCopy).toBe(first);
  });

  it('is refused to another session (404, like an unknown listing), bad input 400', async () => {
    const { listing } = await wizard(t);
    const stranger = t.newSession();
    expect((await optimize(stranger, listing.id, { templateType: 'just-listed' }).expect(404)).body.code).toBe('listings.not_found');
    const { session } = await wizard(t);
    expect((await optimize(session, 999999, { templateType: 'just-listed' }).expect(404)).body.code).toBe('listings.not_found');
    const bad = await optimize(session, listing.id, { templateType: 'coming-soon', refresh: 'yes' }).expect(400);
    expect(bad.body.fields).toEqual({ templateType: 'Template type must be just-listed or just-sold', refresh: 'refresh must be true or false' });
  });

  describe('POST /api/ad-copy/check', () => {
    it('lists the Fair Housing findings of a text, without a session', async () => {
      const res = await t.request.post('/api/ad-copy/check').send({ text: 'Perfect for young couples! Walking distance to church. Master bedroom upstairs.' }).expect(200);
      expect(res.body).toEqual({
        findings: [
          { phrase: 'Perfect for young couples', protectedClass: 'familial status', reason: expect.any(String), suggestion: expect.any(String) },
          { phrase: 'Walking distance to church', protectedClass: 'religion', reason: expect.any(String), suggestion: expect.any(String) },
        ],
      });
    });

    it('answers no findings for compliant copy and 400 for no text', async () => {
      expect((await t.request.post('/api/ad-copy/check').send({ text: 'Bright 2-bed condo with a family room.' }).expect(200)).body).toEqual({ findings: [] });
      expect((await t.request.post('/api/ad-copy/check').send({ text: '  ' }).expect(400)).body.fields).toEqual({ text: 'Ad text is required' });
    });

    it('is rate limited per session', async () => {
      const { session } = await wizard(t);
      for (let i = 0; i < AI_CALLS_PER_SESSION_PER_MINUTE; i++) {
        await session.post('/api/ad-copy/check').send({ text: 'Nice home.' }).expect(200);
      }
      const limited = await session.post('/api/ad-copy/check').send({ text: 'Nice home.' }).expect(429);
      expect(limited.body.code).toBe('rate_limited');
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      const { session: other } = await wizard(t);
      await other.post('/api/ad-copy/check').send({ text: 'Nice home.' }).expect(200);
    });
  });
});

describe('with OpenAI (OPENAI_API_KEY set)', () => {
  let t: TestContext;
  beforeAll(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1|localhost/);
    t = await createTestContext({ env: { OPENAI_API_KEY: 'sk-test-key', OPENAI_MODEL: 'gpt-4o-mini' } });
    expect(t.config.providers.ai).toBe('openai');
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending).toEqual([]);
  });
  afterAll(async () => {
    nock.enableNetConnect();
    // Off the shared globals, so the next test file in this worker starts with a clean http/fetch.
    nock.restore();
    await t.close();
  });

  const completion = (content: string) => ({
    id: 'chatcmpl-123',
    object: 'chat.completion',
    created: 1723780938,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 200, completion_tokens: 60, total_tokens: 260 },
  });

  it('returns the model\u2019s copy, checked for Fair Housing language', async () => {
    const { session, listing } = await wizard(t);
    let prompt = '';
    nock('https://api.openai.com', { reqheaders: { authorization: 'Bearer sk-test-key' } })
      .post('/v1/chat/completions', (body: { model: string; messages: { content: string }[] }) => {
        prompt = body.messages[1].content;
        return body.model === 'gpt-4o-mini';
      })
      .reply(200, completion('Just listed in Tampa! This 3-bed home is perfect for young couples. Adults only. Book your tour today.'));
    const res = await session.post(`/api/listings/${listing.id}/optimize-ad-copy`).send({ templateType: 'just-listed' }).expect(200);
    expect(res.body.optimizedCopy).toBe('Just listed in Tampa! This 3-bed home is perfect for any buyer. Book your tour today.');
    expect(prompt).toContain('Location: Tampa, Florida');
    expect(prompt).toContain('List price: $450,000');
  });

  it('falls back to the built-in copy when nothing compliant is left', async () => {
    const { session, listing } = await wizard(t);
    nock('https://api.openai.com').post('/v1/chat/completions').reply(200, completion('Adults only. No children.'));
    const res = await session.post(`/api/listings/${listing.id}/optimize-ad-copy`).send({ templateType: 'just-listed' }).expect(200);
    expect(res.body.optimizedCopy).toMatch(/^Just listed in Tampa, FL!/);
  });

  it('answers a clean 502 when OpenAI fails', async () => {
    const { session, listing } = await wizard(t);
    nock('https://api.openai.com')
      .post('/v1/chat/completions')
      .reply(401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    const res = await session.post(`/api/listings/${listing.id}/optimize-ad-copy`).send({ templateType: 'just-listed' }).expect(502);
    expect(res.body).toEqual({ message: 'The ad copy service is unavailable right now. Please try again.', code: 'ai.provider_unavailable' });
  });

  it('checks ownership before calling OpenAI', async () => {
    const { listing } = await wizard(t);
    await t.newSession().post(`/api/listings/${listing.id}/optimize-ad-copy`).send({ templateType: 'just-listed' }).expect(404);
  });
});
