import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
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
}

export function outboxDir(config: Pick<Config, 'DATA_DIR'>): string {
  return path.join(config.DATA_DIR, 'outbox');
}

/**
 * Email through nodemailer: SMTP at SMTP_URL (the real provider), or the embedded outbox, where nodemailer
 * builds the very same MIME message and it is written as an .eml file under DATA_DIR/outbox (open it in
 * any mail client; listed in development at /dev/outbox).
 */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'DATA_DIR' | 'OUTBOUND_TIMEOUT_MS'>): Mailer {
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL, {
      from: config.MAIL_FROM,
      connectionTimeout: config.OUTBOUND_TIMEOUT_MS,
      greetingTimeout: config.OUTBOUND_TIMEOUT_MS,
      socketTimeout: config.OUTBOUND_TIMEOUT_MS,
    } as never);
    return {
      provider: 'smtp',
      async send(message) {
        const info = await transport.sendMail({ from: config.MAIL_FROM, ...message });
        return { messageId: String(info.messageId), transport: 'smtp' };
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = outboxDir(config);
  // The folder is made once, not before every email; made again if it went away meanwhile (the write says so).
  let made: Promise<unknown> | undefined;
  const makeDir = () => (made ??= fs.mkdir(dir, { recursive: true }).catch((err) => ((made = undefined), Promise.reject(err))));
  return {
    provider: 'outbox',
    async send(message) {
      const info = (await transport.sendMail({ from: config.MAIL_FROM, ...message })) as { messageId: string; message: Buffer };
      await makeDir();
      // Sortable by time; the random part keeps two emails in one millisecond apart.
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`);
      try {
        await fs.writeFile(file, info.message);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        made = undefined;
        await makeDir();
        await fs.writeFile(file, info.message);
      }
      return { messageId: String(info.messageId), transport: 'outbox', file };
    },
  };
}
