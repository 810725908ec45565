import nock from 'nock';

/**
 * For a test file that runs the app (or a database) beside nock: only loopback may be reached for real (the test
 * database, the app under test); every other host must be answered by an interceptor. nock patches node's shared
 * modules, so they are restored after the file (the next file in this worker must not inherit them).
 */
export function nockOutbound(): void {
  beforeAll(() => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  });
  afterEach(() => nock.cleanAll());
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });
}
