import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { composeEml, createMailer, outboxDir, type EmailMessage } from './mailer';

/**
 * The embedded outbox (issue 28: the email is built by nodemailer's MailComposer directly, not through a
 * transport): the .eml is the very message nodemailer's transports make, with <LF> line ends, one file per email.
 */

const FROM = 'Listing Ads <no-reply@listingads.example>';
const message: EmailMessage = {
  to: 'agent@example.com',
  replyTo: 'zoe@buyer.example',
  subject: 'New lead: Zoë Ångström — 12 Palm Ave',
  text: `You have a new lead.\n\nName: Zoë Ångström\nOpen your dashboard: https://homes.example.com/verify-email?token=AB12cd_-x\n${'A line long enough to need a soft break. '.repeat(3)}\n`,
  html: '<p>Zoë Ångström sent a request · <a href="https://homes.example.com/verify-email?token=AB12cd_-x">Open your dashboard</a></p>',
};

/** A quoted-printable body back to its text (soft breaks undone, =XX as bytes, UTF-8). */
const decodeQp = (s: string) => Buffer.from(s.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');

/** The parts of a multipart/alternative .eml: each part's headers and its decoded body. */
function parts(eml: string) {
  const boundary = /boundary="([^"]+)"/.exec(eml)![1]!;
  return eml
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((p) => {
      const [head, ...body] = p.replace(/^\n/, '').split('\n\n');
      return { head, body: decodeQp(body.join('\n\n').replace(/\n$/, '')) };
    });
}

/** A message without what differs between two builds of it (Message-ID, Date, boundary). */
const stable = (eml: string) =>
  eml
    .replace(/^Message-ID: .*$/m, '')
    .replace(/^Date: .*$/m, '')
    .replaceAll(/boundary="([^"]+)"/.exec(eml)![1]!, 'BOUNDARY');

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-mailer-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const outbox = () => createMailer({ SMTP_URL: undefined, MAIL_FROM: FROM, DATA_DIR: dataDir, OUTBOUND_TIMEOUT_MS: 10_000 });

describe('the embedded outbox', () => {
  it('writes one .eml per email: the headers, both parts quoted-printable, non-ASCII encoded, <LF> line ends', async () => {
    const sent = await outbox().send(message);
    expect(sent.transport).toBe('outbox');
    expect(path.dirname(sent.file!)).toBe(outboxDir({ DATA_DIR: dataDir }));
    expect(path.basename(sent.file!)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{8}\.eml$/);
    const eml = fs.readFileSync(sent.file!, 'utf8');

    expect(eml).not.toContain('\r');
    expect(eml).toMatch(/^From: Listing Ads <no-reply@listingads\.example>$/m);
    expect(eml).toMatch(/^To: agent@example\.com$/m);
    expect(eml).toMatch(/^Reply-To: zoe@buyer\.example$/m);
    expect(eml).toMatch(/^MIME-Version: 1\.0$/m);
    expect(eml).toMatch(/^Content-Type: multipart\/alternative;/m);
    // The Message-ID the mailer answers is the message's own, at the sender's domain.
    expect(sent.messageId).toMatch(/^<[0-9a-f-]{36}@listingads\.example>$/);
    expect(eml).toContain(`Message-ID: ${sent.messageId}\n`);
    // The subject as RFC 2047 encoded words (ASCII only on the wire), which decode to the subject.
    const subject = /^Subject: (.*(?:\n .*)*)$/m.exec(eml)![1]!;
    expect(subject).toMatch(/^[\x20-\x7e\n]+$/);
    const words = [...subject.matchAll(/=\?UTF-8\?Q\?([^?]*)\?=/g)].map((m) => m[1]!.replace(/_/g, ' ')).join('');
    expect(decodeQp(words)).toBe(message.subject);

    const [text, html] = parts(eml);
    expect(text!.head).toBe('Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable');
    expect(text!.body).toBe(message.text);
    expect(html!.head).toBe('Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable');
    expect(html!.body).toBe(message.html);
    // Every line within the 76 characters quoted-printable allows.
    for (const line of eml.split('\n')) expect(line.length).toBeLessThanOrEqual(78);
  });

  it('is the message nodemailer’s own transports build, line ends aside', async () => {
    const viaTransport = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }).sendMail({ from: FROM, ...message });
    const { eml } = await composeEml(FROM, message);
    expect(stable(eml)).toBe(stable((viaTransport.message as Buffer).toString('utf8')));
  });

  it('gives two emails sent at once two files and two Message-IDs', async () => {
    const mailer = outbox();
    const [a, b] = await Promise.all([mailer.send(message), mailer.send(message)]);
    expect(a.file).not.toBe(b.file);
    expect(a.messageId).not.toBe(b.messageId);
    expect(fs.readdirSync(outboxDir({ DATA_DIR: dataDir }))).toHaveLength(2);
  });

  it('makes the folder again when it went away between two emails', async () => {
    const mailer = outbox();
    await mailer.send(message);
    fs.rmSync(outboxDir({ DATA_DIR: dataDir }), { recursive: true });
    const sent = await mailer.send(message);
    expect(fs.readdirSync(outboxDir({ DATA_DIR: dataDir }))).toEqual([path.basename(sent.file!)]);
  });
});
