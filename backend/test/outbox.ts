import fs from 'node:fs/promises';
import path from 'node:path';

export interface OutboxEmail {
  file: string;
  to: string;
  subject: string;
  /** The raw MIME message, quoted-printable soft breaks undone. */
  body: string;
  hasHtml: boolean;
  hasText: boolean;
  /** The token of the first /verify-email or /reset-password link. */
  token: string | null;
}

function decodeQp(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

async function read(dir: string): Promise<OutboxEmail[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const out: OutboxEmail[] = [];
  for (const name of names.filter((n) => n.endsWith('.eml')).sort()) {
    const raw = await fs.readFile(path.join(dir, name), 'utf8');
    const body = decodeQp(raw);
    out.push({
      file: name,
      to: /^To: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
      subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
      body,
      hasHtml: /Content-Type: text\/html/i.test(raw),
      hasText: /Content-Type: text\/plain/i.test(raw),
      token: /\/(?:verify-email|reset-password)\?token=([A-Za-z0-9_-]+)/.exec(body)?.[1] ?? null,
    });
  }
  return out;
}

/** Every email in DATA_DIR/outbox addressed to `to`, oldest first. */
export async function emailsTo(dataDir: string, to: string): Promise<OutboxEmail[]> {
  return (await read(path.join(dataDir, 'outbox'))).filter((m) => m.to.toLowerCase() === to.toLowerCase());
}

/** Wait (polling the outbox, written by the job) until `count` emails to `to` exist; the newest one. */
export async function waitForEmail(dataDir: string, to: string, count = 1, timeoutMs = 10_000): Promise<OutboxEmail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await emailsTo(dataDir, to);
    if (found.length >= count) return found[found.length - 1]!;
    if (Date.now() > until) throw new Error(`no email #${count} to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
