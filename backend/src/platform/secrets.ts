import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from './config';

/**
 * In the embedded mode nobody has to configure secrets: a session secret and an encryption key are
 * generated once and kept in DATA_DIR (owner-only), so sessions and encrypted settings survive restarts.
 * With an external DATABASE_URL in production, configuration must provide them (config.ts says so).
 */
export function withLocalSecrets(config: Config): Config {
  if (config.SESSION_SECRET && config.ENCRYPTION_KEY) return config;
  const file = path.join(config.DATA_DIR, 'secrets.json');
  let stored: { sessionSecret?: string; encryptionKey?: string } = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8'));
  const next = {
    sessionSecret: stored.sessionSecret ?? crypto.randomBytes(32).toString('hex'),
    encryptionKey: stored.encryptionKey ?? crypto.randomBytes(32).toString('hex'),
  };
  if (next.sessionSecret !== stored.sessionSecret || next.encryptionKey !== stored.encryptionKey) {
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(next), { mode: 0o600 });
  }
  return { ...config, SESSION_SECRET: config.SESSION_SECRET ?? next.sessionSecret, ENCRYPTION_KEY: config.ENCRYPTION_KEY ?? next.encryptionKey };
}
