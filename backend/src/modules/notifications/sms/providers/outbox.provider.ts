import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from '../../../../platform/config';
import type { SmsProvider } from './sms-provider';

export function smsOutboxDir(config: Pick<Config, 'DATA_DIR'>): string {
  return path.join(config.DATA_DIR, 'sms-outbox');
}

/**
 * The embedded default: each text is a small file under DATA_DIR/sms-outbox (`To:`, `Date:`, a blank line,
 * the body), named so the newest sorts last; listed in development at /dev/outbox beside the emails.
 */
export function outboxSmsProvider(config: Pick<Config, 'DATA_DIR'>): SmsProvider {
  const dir = smsOutboxDir(config);
  return {
    name: 'outbox',
    async send({ to, body }) {
      await fs.mkdir(dir, { recursive: true });
      const at = new Date();
      const file = `${at.toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.txt`;
      await fs.writeFile(path.join(dir, file), `To: ${to}\nDate: ${at.toISOString()}\n\n${body}\n`, 'utf8');
      return { id: file };
    },
  };
}
