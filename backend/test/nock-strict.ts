import nock from 'nock';

/**
 * For a provider's contract test file: only loopback may be reached for real, every other host must be answered by
 * an interceptor, and every interceptor a test sets up must have been used by the end of that test (a request the
 * provider should have made but did not fails the test). nock patches node's shared http/fetch modules, so they are
 * restored after the file: the next test file in this worker loads its own nock, and two stacked interceptors break
 * loopback connections (supertest, pg).
 */
export function nockStrict(): void {
  beforeAll(() => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending).toEqual([]);
  });
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });
}
