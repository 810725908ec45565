import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A local webhook receiver for tests: records every request and answers with what `respond` says
 * (status, headers, body). `refuse()` closes the port so connections are refused, `accept()` reopens it.
 */
export async function startReceiver(respond: (req: Received, n: number) => { status: number; headers?: Record<string, string>; body?: string } = () => ({ status: 200 })) {
  const received: Received[] = [];
  let port = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const r: Received = { method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() };
      received.push(r);
      const answer = respond(r, received.length);
      res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
    });
  });
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  await listen();
  port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    received,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    refuse: close,
    accept: listen,
    close,
  };
}
