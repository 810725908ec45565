import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createMailer, SMTP_POOL_CONNECTIONS, type EmailMessage, type Mailer } from './mailer';

/**
 * The real mail provider (SMTP_URL) against a real SMTP server on this machine (smtp-server, from nodemailer's
 * authors): what arrives, the connections it keeps open and reuses, and its own timeouts on a server that never
 * answers.
 */

const FROM = 'Listing Ads <no-reply@listingads.example>';
const message = (i: number): EmailMessage => ({
  to: `agent${i}@example.com`,
  replyTo: 'zoe@buyer.example',
  subject: `New lead ${i}: Zoë Ångström`,
  text: `You have a new lead (${i}).`,
  html: `<p>You have a new lead (${i}).</p>`,
});

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
  connection: string;
}

let server: SMTPServer;
let port: number;
let received: Received[] = [];
let connections = 0;
const mailers: Mailer[] = [];
const smtpMailer = (url: string, timeoutMs = 10_000) => {
  const mailer = createMailer({ SMTP_URL: url, MAIL_FROM: FROM, DATA_DIR: '/nonexistent', OUTBOUND_TIMEOUT_MS: timeoutMs });
  mailers.push(mailer);
  return mailer;
};

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('latin1'),
          connection: session.id,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as net.AddressInfo).port;
});

afterEach(() => {
  while (mailers.length) mailers.pop()!.close();
  received = [];
  connections = 0;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the SMTP provider', () => {
  it('hands the message to the server: the envelope, the headers and both parts', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`);
    expect(mailer.provider).toBe('smtp');
    const sent = await mailer.send(message(1));

    expect(sent.transport).toBe('smtp');
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail.from).toBe('no-reply@listingads.example');
    expect(mail.to).toEqual(['agent1@example.com']);
    expect(mail.raw).toMatch(/^From: Listing Ads <no-reply@listingads\.example>\r$/m);
    expect(mail.raw).toMatch(/^To: agent1@example\.com\r$/m);
    expect(mail.raw).toMatch(/^Reply-To: zoe@buyer\.example\r$/m);
    expect(mail.raw).toContain(`Message-ID: ${sent.messageId}`);
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail.raw).toMatch(/Content-Type: text\/plain; charset=utf-8/);
    expect(mail.raw).toMatch(/Content-Type: text\/html; charset=utf-8/);
  });

  it('sends a run of emails over one kept-open connection', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`);
    for (let i = 0; i < 6; i++) await mailer.send(message(i));

    expect(received.map((m) => m.to[0])).toEqual([0, 1, 2, 3, 4, 5].map((i) => `agent${i}@example.com`));
    expect(connections).toBe(1);
    expect(new Set(received.map((m) => m.connection)).size).toBe(1);
  });

  it('sends emails asked for at once over at most SMTP_POOL_CONNECTIONS connections', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`);
    const sent = await Promise.all(Array.from({ length: 20 }, (_, i) => mailer.send(message(i))));

    expect(new Set(sent.map((s) => s.messageId)).size).toBe(20);
    expect(received.map((m) => m.to[0]).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `agent${i}@example.com`).sort());
    expect(connections).toBeGreaterThan(0);
    expect(connections).toBeLessThanOrEqual(SMTP_POOL_CONNECTIONS);
  });

  it('gives up on a server that never greets after OUTBOUND_TIMEOUT_MS, not nodemailer’s own 30 seconds', async () => {
    // Accepts the connection and says nothing.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const mailer = smtpMailer(`smtp://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, 200);
      await expect(mailer.send(message(1))).rejects.toMatchObject({ code: 'ETIMEDOUT', message: expect.stringMatching(/greeting/i) });
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
