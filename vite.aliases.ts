import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Alias } from 'vite';

/** An entry of a package.json `exports` map: a file, or conditions (contracts: types, source, default). */
type ExportTarget = string | { source?: string; default: string };

/**
 * The Vite aliases of the workspace packages the frontends share, @app/contracts and @app/ui: one per entry of
 * each package's `exports` map (its doors), pointing at the sources, so Vite compiles them with the app and
 * tree-shakes them. The package.json is the one list of doors: what is not exported does not resolve. Node (the
 * backend) reads the same maps and gets contracts' compiled dist/.
 */
export function workspaceAliases(): Alias[] {
  return ['contracts', 'ui'].flatMap((dir) => {
    const url = new URL(`./${dir}/`, import.meta.url);
    const pkg = JSON.parse(readFileSync(new URL('package.json', url), 'utf8')) as { name: string; exports: Record<string, ExportTarget> };
    return Object.entries(pkg.exports)
      .filter(([subpath]) => subpath !== './package.json')
      .map(([subpath, target]) => ({
        find: new RegExp(`^${(pkg.name + subpath.slice(1)).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`),
        replacement: fileURLToPath(new URL(typeof target === 'string' ? target : (target.source ?? target.default), url)),
      }));
  });
}
