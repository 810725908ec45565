import { readFileSync } from 'node:fs';
import { federation } from '@module-federation/vite';
import { defineConfig, type PluginOption, type UserConfig } from 'vite';
import { federationShared } from './contracts/src/remotes';
import { workspaceAliases } from './vite.aliases';

const backend = 'http://localhost:3000';

/**
 * The Vite config of a Module Federation remote (frontend-dashboard, frontend-admin): its React plugin (`react`,
 * from the remote's own @vitejs/plugin-react, which each frontend installs for itself), the remote exposing
 * ./App from src/App.tsx as remoteEntry.js, sharing the host's singletons at the versions in the remote's
 * package.json (`packageJson`), the workspace packages at their sources, and dev/preview servers proxying the API
 * to the backend on :3000.
 */
export function remoteViteConfig(opts: { name: string; react: PluginOption; packageJson: URL; devPort: number; previewPort: number }): UserConfig {
  const pkg = JSON.parse(readFileSync(opts.packageJson, 'utf8')) as { dependencies: Record<string, string> };
  const proxy = { '/api': backend, '/objects': backend };
  return defineConfig({
    // Relative base: every URL the build emits (chunks, CSS, assets, preload deps) resolves
    // against the file that references it (import.meta.url), so the same dist/ works under
    // /remotes/<name>/ of our backend, under any other path, and from another origin.
    // The federation plugin derives publicPath 'auto' from it. Standalone, src/standalone.ts
    // finds the deployed path at run time for the router's basename.
    base: './',
    plugins: [
      opts.react,
      federation({
        name: opts.name,
        filename: 'remoteEntry.js',
        exposes: {
          './App': './src/App.tsx',
        },
        shared: federationShared(pkg.dependencies),
        dts: false,
      }),
    ],
    resolve: {
      // @app/contracts, @app/contracts/rules, @app/contracts/api-client, @app/ui, @app/ui/tokens.css…: the packages' exports, at their sources.
      alias: workspaceAliases(),
    },
    server: { port: opts.devPort, strictPort: true, proxy },
    preview: { port: opts.previewPort, proxy },
    build: {
      target: 'es2022',
      outDir: 'dist',
      emptyOutDir: true,
    },
  });
}
