/// <reference types="node" />
// This test reads the frontends' sources (Node APIs); contracts' own code stays browser-safe (the frontends type-check it with DOM types only).
import fs from 'node:fs';
import path from 'node:path';
import { federationShared, SHARED_ROUTER_EXPORTS, SHARED_SINGLETONS } from './remotes.js';

const repo = path.resolve(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

describe('federationShared', () => {
  it('shares every singleton with the app’s own version range', () => {
    const shared = federationShared({ react: '^19.3.1', 'react-router-dom': '^7.18.5' });
    expect(Object.keys(shared)).toEqual([...SHARED_SINGLETONS]);
    expect(shared.react).toEqual({ singleton: true, requiredVersion: '^19.3.1' });
    expect(shared['react-router-dom']).toMatchObject({
      singleton: true,
      treeShaking: { mode: 'runtime-infer', usedExports: [...SHARED_ROUTER_EXPORTS] },
    });
  });

  it('lists every react-router-dom export the three apps import (else a second router could load)', () => {
    const used = new Set<string>();
    for (const app of ['frontend-host', 'frontend-dashboard', 'frontend-admin']) {
      for (const file of sourceFiles(path.join(repo, app, 'src'))) {
        const text = fs.readFileSync(file, 'utf8');
        for (const m of text.matchAll(/import\s+(type\s+)?\{([^}]+)\}\s+from\s+'react-router-dom'/g)) {
          if (m[1]) continue;
          for (const part of m[2].split(',')) {
            const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0];
            if (name && !part.trim().startsWith('type ')) used.add(name);
          }
        }
        expect(text).not.toMatch(/import\s+\*\s+as\s+\w+\s+from\s+'react-router-dom'/);
      }
    }
    expect(used.size).toBeGreaterThan(0);
    const missing = [...used].filter((n) => !(SHARED_ROUTER_EXPORTS as readonly string[]).includes(n));
    expect(missing).toEqual([]);
  });
});
