/// <reference types="node" />
// This test reads the frontends' sources (Node APIs); contracts' own code stays browser-safe (the frontends type-check it with DOM types only).
import fs from 'node:fs';
import path from 'node:path';
import { federationShared, SHARED_REACT_REDUX_EXPORTS, SHARED_ROUTER_EXPORTS, SHARED_SINGLETONS } from './remotes.js';

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

  /** Named value imports of `pkg` in the three apps' sources. */
  function appImports(pkg: string): Set<string> {
    const used = new Set<string>();
    const pattern = new RegExp(`import\\s+(type\\s+)?\\{([^}]+)\\}\\s+from\\s+'${pkg}'`, 'g');
    for (const app of ['frontend-host', 'frontend-dashboard', 'frontend-admin']) {
      for (const file of sourceFiles(path.join(repo, app, 'src'))) {
        const text = fs.readFileSync(file, 'utf8');
        expect(text).not.toMatch(new RegExp(`import\\s+\\*\\s+as\\s+\\w+\\s+from\\s+'${pkg}'`));
        for (const m of text.matchAll(pattern)) {
          if (m[1]) continue;
          for (const part of m[2].split(',')) {
            const name = part.trim().split(/\s+as\s+/)[0];
            if (name && !name.startsWith('type ')) used.add(name);
          }
        }
      }
    }
    return used;
  }

  it('lists every react-router-dom export the three apps import (else a second router could load)', () => {
    const used = appImports('react-router-dom');
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((n) => !(SHARED_ROUTER_EXPORTS as readonly string[]).includes(n))).toEqual([]);
  });

  it('lists every react-redux export the apps and RTK Query\'s React hooks import', () => {
    const used = appImports('react-redux');
    const rtkQueryReact = fs.readFileSync(
      path.join(repo, 'node_modules', '@reduxjs', 'toolkit', 'dist', 'query', 'react', 'rtk-query-react.modern.mjs'),
      'utf8',
    );
    const fromRtk = [...rtkQueryReact.matchAll(/import\s*\{([^}]+)\}\s*from\s*["']react-redux["']/g)];
    expect(fromRtk.length).toBeGreaterThan(0);
    for (const m of fromRtk) for (const part of m[1].split(',')) used.add(part.trim().split(/\s+as\s+/)[0]);
    expect([...used].filter((n) => n && !(SHARED_REACT_REDUX_EXPORTS as readonly string[]).includes(n))).toEqual([]);
  });
});
