import fs from 'node:fs';
import path from 'node:path';

/**
 * contracts/CONTEXT.md: the top-level files of contracts/src are the zod-free rules and texts (the pages load them
 * without zod); requests live in schemas/, answers in wire/. lint:deps keeps their imports of schemas/ and wire/
 * out; zod is a package, outside what lint:deps follows, so this reads the imports themselves.
 */
const TOP = __dirname;
const rules = fs.readdirSync(TOP).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts');
const runtimeImports = (file: string) =>
  Array.from(fs.readFileSync(path.join(TOP, file), 'utf8').matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms), (m) => m[1]);

describe('the rules at the top of contracts/src', () => {
  it('are there to check', () => {
    expect(rules).toEqual(expect.arrayContaining(['pricing.ts', 'format.ts', 'public-listing.ts']));
  });

  it.each(rules)('%s loads without zod', (file) => {
    expect(runtimeImports(file)).not.toContain('zod');
  });
});
