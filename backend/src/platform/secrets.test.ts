import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from './config';
import { withLocalSecrets } from './secrets';

describe('withLocalSecrets', () => {
  it('generates secrets once, keeps them owner-only, and reuses them on the next start', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-secrets-'));
    const first = withLocalSecrets(loadConfig({ DATA_DIR: dir }));
    expect(first.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(first.ENCRYPTION_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(first.ADMIN_PASSWORD!.length).toBeGreaterThanOrEqual(16);
    expect(fs.statSync(path.join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    const second = withLocalSecrets(loadConfig({ DATA_DIR: dir }));
    expect(second.SESSION_SECRET).toBe(first.SESSION_SECRET);
    expect(second.ADMIN_PASSWORD).toBe(first.ADMIN_PASSWORD);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('never overrides configured values', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-secrets-'));
    const c = withLocalSecrets(loadConfig({ DATA_DIR: dir, ADMIN_PASSWORD: 'configured-pass', SESSION_SECRET: 's'.repeat(40) }));
    expect(c.ADMIN_PASSWORD).toBe('configured-pass');
    expect(c.SESSION_SECRET).toBe('s'.repeat(40));
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
