/// <reference types="node" />
import fs from 'node:fs';
import path from 'node:path';

// The package's doors (package.json `exports`) and the zod-free door's list stay in step with the files (Node APIs in
// this test only; contracts' own code stays browser-safe).
const root = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; source: string; default: string }>;
};
const read = (file: string) => fs.readFileSync(path.join(root, 'src', file), 'utf8');
const reExports = (file: string) => [...read(file).matchAll(/^export \* from '\.\/([^']+)\.js';$/gm)].map((m) => m[1]);

/** The top-level modules: the zod-free rules, constants, formats and texts (requests live in schemas/, answers in wire/). */
const topLevel = fs
  .readdirSync(path.join(root, 'src'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !['index.ts', 'rules.ts', 'api-client.ts'].includes(f))
  .map((f) => f.replace(/\.ts$/, ''));

describe('@app/contracts doors', () => {
  it('rules.ts (@app/contracts/rules) re-exports every top-level module, so no frontend needs a path into src', () => {
    expect(reExports('rules.ts').sort()).toEqual(topLevel.sort());
  });

  it('the barrel is the rules, the requests, the answers and the api client', () => {
    expect(reExports('index.ts').sort()).toEqual(['api-client', 'rules', 'schemas/index', 'wire/index']);
  });

  it('each door names its source, its compiled file and its declarations, and they agree', () => {
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (subpath === './package.json') continue;
      if (typeof target === 'string') throw new Error(`${subpath}: expected { types, source, default }`);
      const name = subpath === '.' ? 'index' : subpath.slice(2);
      expect(target).toEqual({ types: `./dist/${name}.d.ts`, source: `./src/${name}.ts`, default: `./dist/${name}.js` });
      expect(fs.existsSync(path.join(root, target.source))).toBe(true);
    }
    expect(Object.keys(pkg.exports).sort()).toEqual(['.', './api-client', './package.json', './rules']);
  });
});
