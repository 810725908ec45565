// nock patches Node's shared http/net modules, which jest does not sandbox between test files run by the
// same worker. Undo it after every file so the next file's database and HTTP connections are untouched.
afterAll(() => {
  const loaded = require('nock');
  const nock = loaded.default ?? loaded;
  nock.cleanAll();
  nock.enableNetConnect();
  nock.restore();
});
