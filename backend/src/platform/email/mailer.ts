import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { PassThrough } from 'node:stream';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import type { Config } from '../config';

/** One email as the product sends it: always an HTML part and a plain-text part. */
export interface EmailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  replyTo?: string;
}

export interface SentEmail {
  messageId: string;
  /** Where it went: "smtp" or the .eml file written to the outbox. */
  transport: 'smtp' | 'outbox';
  file?: string;
}

export interface Mailer {
  readonly provider: 'smtp' | 'outbox';
  send(message: EmailMessage): Promise<SentEmail>;
  /** Closes the SMTP connections kept open (nothing for the outbox). */
  close(): void;
}

/**
 * Connections the SMTP provider keeps open and reuses (nodemailer's pool): a worker's emails go out over them, not
 * over a new connection, greeting and TLS handshake each. An idle connection is closed after OUTBOUND_TIMEOUT_MS.
 */
export const SMTP_POOL_CONNECTIONS = 5;

/** What a mailer is made from. */
type MailerConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'DATA_DIR' | 'OUTBOUND_TIMEOUT_MS'>;

export function outboxDir(config: Pick<Config, 'DATA_DIR'>): string {
  return path.join(config.DATA_DIR, 'outbox');
}

/** The domain of MAIL_FROM's address, for the Message-ID (as nodemailer makes it: the sender's domain). */
function senderDomain(from: string): string {
  return /@([^\s<>@]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
}

/**
 * The outbox's .eml: the MIME message as nodemailer's MailComposer builds it (the same tree, headers and
 * quoted-printable parts its transports send), composed directly rather than through a transport's sendMail,
 * whose plugin pipeline does nothing for an outbox. The root node streams itself (MimeNode.stream) into one
 * PassThrough: build() would add a stream pipeline and a trailing-newline transform around it. The outbox has
 * always had <LF> line ends: nodemailer's `newline: 'unix'` streams the message through a transform that pushes
 * one chunk per line (a third of the build's CPU), so the <CR>s are dropped from the built message in one pass
 * instead, the same bytes. The Message-ID and the multipart boundary come from one random UUID, not nine
 * crypto.randomBytes calls.
 */
export async function composeEml(from: string, message: EmailMessage, id: string = crypto.randomUUID()): Promise<{ messageId: string; eml: string }> {
  const messageId = `<${id}@${senderDomain(from)}>`;
  const root = new MailComposer({ from, ...message, messageId, baseBoundary: id.replace(/-/g, '') } as Mail.Options).compile();
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    out.once('end', resolve);
    root.stream(out, {}, (err) => (err ? (out.destroy(), reject(err)) : out.end()));
  });
  // A built message is 7-bit (quoted-printable and encoded words), so latin1 keeps every byte as it is.
  const eml = Buffer.concat(chunks).toString('latin1').replaceAll('\r', '');
  return { messageId, eml: eml.endsWith('\n') ? eml : `${eml}\n` };
}

/**
 * Email through nodemailer: SMTP at SMTP_URL (the real provider), or the embedded outbox, where nodemailer
 * builds the very same MIME message and it is written as an .eml file under DATA_DIR/outbox (open it in
 * any mail client; listed in development at /dev/outbox).
 */
export function createMailer(config: MailerConfig): Mailer {
  if (config.SMTP_URL) {
    // The transport's own options beside the URL (what the URL sets wins): createTransport's second argument is the
    // messages' defaults, where a timeout does nothing and nodemailer's own (minutes) would hold an attempt past
    // its lease.
    const transport = nodemailer.createTransport(
      {
        url: config.SMTP_URL,
        pool: true,
        maxConnections: SMTP_POOL_CONNECTIONS,
        connectionTimeout: config.OUTBOUND_TIMEOUT_MS,
        greetingTimeout: config.OUTBOUND_TIMEOUT_MS,
        socketTimeout: config.OUTBOUND_TIMEOUT_MS,
      } as never,
      { from: config.MAIL_FROM },
    );
    return {
      provider: 'smtp',
      async send(message) {
        const info = await transport.sendMail({ from: config.MAIL_FROM, ...message });
        return { messageId: String(info.messageId), transport: 'smtp' };
      },
      close: () => transport.close(),
    };
  }
  const dir = outboxDir(config);
  // The folder is made once, not before every email; made again if it went away meanwhile (the write says so).
  let made: Promise<unknown> | undefined;
  const makeDir = () => (made ??= fs.promises.mkdir(dir, { recursive: true }).catch((err) => ((made = undefined), Promise.reject(err))));
  return {
    provider: 'outbox',
    async send(message) {
      const id = crypto.randomUUID();
      const { messageId, eml } = await composeEml(config.MAIL_FROM, message, id);
      await makeDir();
      // Sortable by time; the random part (the Message-ID's) keeps two emails in one millisecond apart.
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${id.slice(0, 8)}.eml`);
      // One synchronous write of a few kilobytes: the same open/write/close the kernel does for an asynchronous
      // one, without a FileHandle and three thread-pool round trips per email (measured: issue 28).
      try {
        fs.writeFileSync(file, eml, 'latin1');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        made = undefined;
        await makeDir();
        fs.writeFileSync(file, eml, 'latin1');
      }
      return { messageId, transport: 'outbox', file };
    },
    close() {},
  };
}

// One mailer per configuration (one per process in practice): the SMTP provider's connections are shared by every
// email the process sends.
const mailers = new WeakMap<object, Mailer>();

/** The process's mailer for `config` (createMailer once, then the same one). */
export function mailerFor(config: MailerConfig): Mailer {
  let mailer = mailers.get(config);
  if (!mailer) mailers.set(config, (mailer = createMailer(config)));
  return mailer;
}
