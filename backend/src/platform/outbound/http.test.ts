import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSafeFetch, isForbiddenAddress, OutboundError, resolvesToPublicAddresses } from './http';

describe('isForbiddenAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true], // cloud metadata
    ['100.100.100.200', true], // carrier-grade NAT (another metadata address)
    ['0.0.0.0', true],
    ['::1', true],
    ['fd00:ec2::254', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true], // IPv4-mapped loopback
    ['::ffff:10.0.0.1', true],
    ['224.0.0.1', true],
    ['not-an-ip', true],
    ['93.184.216.34', false],
    ['2606:2800:220:1:248:1893:25c8:1946', false],
  ])('%s → forbidden %s', (ip, forbidden) => {
    expect(isForbiddenAddress(ip)).toBe(forbidden);
  });

  it('allows loopback only when told to', () => {
    expect(isForbiddenAddress('127.0.0.1', true)).toBe(false);
    expect(isForbiddenAddress('10.0.0.1', true)).toBe(true);
  });
});

describe('resolvesToPublicAddresses (the check at save)', () => {
  // Names resolve through backend/test/offline-dns.cjs: example.com names to a public address, *.internal.test to 10.0.0.8.
  it('accepts a host that resolves to public addresses only', async () => {
    expect(await resolvesToPublicAddresses('https://hooks.example.com/in', { allowLoopback: false })).toBe(true);
    expect(await resolvesToPublicAddresses('https://93.184.215.14/in', { allowLoopback: false })).toBe(true);
  });

  it('refuses private, loopback, link-local and metadata targets, literal or by name, and names that do not resolve', async () => {
    for (const url of [
      'https://crm.internal.test/in',
      'https://10.0.0.5/in',
      'https://192.168.1.10/in',
      'http://169.254.169.254/latest/meta-data/',
      'https://[fd00:ec2::254]/',
      'https://[::ffff:127.0.0.1]/',
      'https://127.0.0.1:8080/',
      'https://localhost/',
      'https://no-such-host.invalid/',
      'not a url',
    ]) {
      expect(await resolvesToPublicAddresses(url, { allowLoopback: false })).toBe(false);
    }
  });

  it('accepts loopback only when told to (tests), never private addresses', async () => {
    expect(await resolvesToPublicAddresses('http://127.0.0.1:9/', { allowLoopback: true })).toBe(true);
    expect(await resolvesToPublicAddresses('http://localhost:9/', { allowLoopback: true })).toBe(true);
    expect(await resolvesToPublicAddresses('https://crm.internal.test/', { allowLoopback: true })).toBe(false);
  });
});

describe('createSafeFetch', () => {
  let server: http.Server;
  let base: string;
  const hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url!);
      if (req.url === '/redirect-private') {
        res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (req.url === '/redirect-ok') {
        res.writeHead(307, { Location: '/ok' }).end();
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 2000);
      } else {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`got ${req.method} ${body}`));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('refuses loopback by default, by literal address and by name', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: false, timeoutMs: 2000 });
    await expect(safeFetch(`${base}/ok`)).rejects.toMatchObject({ code: 'blocked_address' });
    const port = new URL(base).port;
    await expect(safeFetch(`http://localhost:${port}/ok`)).rejects.toMatchObject({ code: 'blocked_address' });
    expect(hits).not.toContain('/ok');
  });

  it('reaches an allowed address and posts a body', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 2000 });
    const res = await safeFetch(`${base}/ok`, { method: 'POST', body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('got POST hello');
  });

  it('checks every redirect hop', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 2000 });
    const ok = await safeFetch(`${base}/redirect-ok`, { method: 'POST', body: 'x' });
    expect(ok.status).toBe(200);
    expect(ok.url).toBe(`${base}/ok`);
    await expect(safeFetch(`${base}/redirect-private`)).rejects.toBeInstanceOf(OutboundError);
  });

  it('refuses non-http schemes and credentials in URLs', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 2000 });
    await expect(safeFetch('file:///etc/passwd')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(safeFetch(`http://user:pw@127.0.0.1/`)).rejects.toMatchObject({ code: 'invalid_url' });
  });

  it('times out', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 300 });
    await expect(safeFetch(`${base}/slow`)).rejects.toMatchObject({ code: 'timeout' });
  });
});
