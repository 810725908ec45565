import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from './config';

interface StoredSecrets {
  sessionSecret?: string;
  encryptionKey?: string;
  adminPassword?: string;
}

/**
 * Nobody has to configure secrets to run the product: a session secret, an encryption key and an admin
 * password are generated once and kept in DATA_DIR/secrets.json (owner-only), so sessions, encrypted
 * settings and the admin login survive restarts. Configured values always win. With an external
 * DATABASE_URL in production, configuration must provide the first two (config.ts says so).
 */
export function withLocalSecrets(config: Config): Config {
  if (config.SESSION_SECRET && config.ENCRYPTION_KEY && config.ADMIN_PASSWORD) return config;
  const file = path.join(config.DATA_DIR, 'secrets.json');
  const stored: StoredSecrets = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  const next: Required<StoredSecrets> = {
    sessionSecret: stored.sessionSecret ?? crypto.randomBytes(32).toString('hex'),
    encryptionKey: stored.encryptionKey ?? crypto.randomBytes(32).toString('hex'),
    adminPassword: stored.adminPassword ?? crypto.randomBytes(12).toString('base64url'),
  };
  if (!stored.sessionSecret || !stored.encryptionKey || !stored.adminPassword) {
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(next, null, 2), { mode: 0o600 });
  }
  return {
    ...config,
    SESSION_SECRET: config.SESSION_SECRET ?? next.sessionSecret,
    ENCRYPTION_KEY: config.ENCRYPTION_KEY ?? next.encryptionKey,
    ADMIN_PASSWORD: config.ADMIN_PASSWORD ?? next.adminPassword,
  };
}
