import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
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
  /** The connections that carried each probe's requests (by its x-probe header). */
  const probes = new Map<string, Set<Socket>>();
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url!);
      const probe = req.headers['x-probe'];
      if (typeof probe === 'string') probes.set(probe, (probes.get(probe) ?? new Set()).add(req.socket));
      if (req.url === '/redirect-with-body') {
        res.writeHead(302, { Location: '/ok', 'Content-Type': 'text/html' }).end('<a href="/ok">moved</a>'.repeat(4500)); // ~100 KB: more than undici buffers unread (64 KB), so a body left unread would hold its connection
      } else if (req.url === '/headers') {
        res.setHeader('Retry-After', '120');
        res.setHeader('X-Many', ['a', 'b']);
        res.writeHead(429).end('slow down');
      } else if (req.url === '/drip') {
        // Headers at once, then a byte every 50 ms for 2 s: no single gap reaches the body timeout.
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        let n = 0;
        const t = setInterval(() => (++n === 40 ? (clearInterval(t), res.end('.')) : res.write('.')), 50);
        res.on('close', () => clearInterval(t));
      } else if (req.url === '/redirect-private') {
        res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (req.url === '/redirect-to-redirect') {
        res.writeHead(301, { Location: '/redirect-ok' }).end();
      } else if (req.url === '/redirect-ok') {
        res.writeHead(307, { Location: '/ok' }).end();
      } else if (req.url === '/big') {
        // 3 MB in 64 KB chunks, no Content-Length: only reading it tells its size.
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        const chunk = 'x'.repeat(64 * 1024);
        let n = 0;
        const more = () => {
          while (n < 48) {
            n++;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        res.on('close', () => (n = 48));
        more();
      } else if (req.url === '/big-declared') {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(2 * 1024 * 1024) }).end('y'.repeat(2 * 1024 * 1024));
      } else if (req.url === '/just-under') {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('z'.repeat(1000));
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

  // undici may open a second connection while the first is finishing its answer; after that, calls alternate over the two.
  it('keeps its connections to a host and reuses them for the next calls', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 2000, maxRedirects: 0 });
    for (let i = 0; i < 8; i++) {
      const res = await safeFetch(`${base}/ok`, { method: 'POST', body: `n${i}`, headers: { 'content-type': 'text/plain', 'x-probe': 'keep-alive' } });
      expect(await res.text()).toBe(`got POST n${i}`);
    }
    expect(probes.get('keep-alive')!.size).toBeLessThanOrEqual(2);
  });

  it('reads off a redirect’s body, so its connection serves the next hop; a POST becomes a GET after a 302', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 2000 });
    for (let i = 0; i < 4; i++) {
      const res = await safeFetch(`${base}/redirect-with-body`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain', 'x-probe': 'followed' } });
      expect(res.status).toBe(200);
      expect(res.url).toBe(`${base}/ok`);
      expect(await res.text()).toBe('got GET ');
    }
    expect(probes.get('followed')!.size).toBeLessThanOrEqual(2);
  });

  it('answers a 3xx as it is with maxRedirects 0, its body read, so the connection serves the next calls', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 2000, maxRedirects: 0 });
    for (let i = 0; i < 4; i++) {
      const res = await safeFetch(`${base}/redirect-with-body`, { method: 'POST', body: 'x', headers: { 'x-probe': 'not-followed' } });
      expect(res.status).toBe(302);
      expect(res.headers.get('Location')).toBe('/ok');
      expect(res.url).toBe(`${base}/redirect-with-body`);
      expect(await res.text()).toContain('moved');
    }
    expect(probes.get('not-followed')!.size).toBeLessThanOrEqual(2);
  });

  it('gives the answer’s headers as Headers#get does', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 2000 });
    const res = await safeFetch(`${base}/headers`);
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('120');
    expect(res.headers.get('x-many')).toBe('a, b');
    expect(res.headers.get('x-absent')).toBeNull();
    expect(await res.text()).toBe('slow down');
  });

  it('bounds the whole call, a body that trickles in included: the status stands, the body is a timeout', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 300 });
    const res = await safeFetch(`${base}/drip`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toMatchObject({ code: 'timeout' });
  });

  it('reads at most maxBodyBytes of an answer: past them the status stands and the body is too_large, declared or not', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 5000 });
    const streamed = await safeFetch(`${base}/big`);
    expect(streamed.status).toBe(200);
    await expect(streamed.text()).rejects.toMatchObject({ code: 'too_large' });
    const declared = await safeFetch(`${base}/big-declared`);
    expect(declared.status).toBe(200);
    await expect(declared.text()).rejects.toMatchObject({ code: 'too_large' });
    // The same client still answers afterwards.
    expect(await (await safeFetch(`${base}/ok`, { method: 'POST', body: 'after' })).text()).toBe('got POST after');

    const small = createSafeFetch({ allowLoopback: true, timeoutMs: 5000, maxBodyBytes: 1000 });
    expect(await (await small(`${base}/just-under`)).text()).toBe('z'.repeat(1000));
    await expect((await small(`${base}/ok`, { method: 'POST', body: 'x'.repeat(1000) })).text()).rejects.toMatchObject({ code: 'too_large' });
  });

  it('maps a refused connection to network', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 2000 });
    await expect(safeFetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: 'network' });
  });

  it('follows at most maxRedirects hops', async () => {
    const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: 2000, maxRedirects: 1 });
    await expect(safeFetch(`${base}/redirect-to-redirect`)).rejects.toMatchObject({ code: 'too_many_redirects' });
  });
});
