import { readFileSync } from 'node:fs';
import { federation } from '@module-federation/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { federationShared } from '../contracts/src/remotes';
import { workspaceAliases } from '../vite.aliases';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};

const shared = federationShared(pkg.dependencies);

const backend = 'http://localhost:3000';

export default defineConfig({
  // Relative base: every URL the build emits (chunks, CSS, assets, preload deps) resolves
  // against the file that references it (import.meta.url), so the same dist/ works under
  // /remotes/admin/ of our backend, under any other path, and from another origin.
  // The federation plugin derives publicPath 'auto' from it. Standalone, src/standalone.ts
  // finds the deployed path at run time for the router's basename.
  base: './',
  plugins: [
    react(),
    federation({
      name: 'admin',
      filename: 'remoteEntry.js',
      exposes: {
        './App': './src/App.tsx',
      },
      shared,
      dts: false,
    }),
  ],
  resolve: {
    // @app/contracts, @app/contracts/rules, @app/contracts/api-client, @app/ui, @app/ui/tokens.css…: the packages' exports, at their sources.
    alias: workspaceAliases(),
  },
  server: {
    port: 5175,
    strictPort: true,
    proxy: {
      '/api': backend,
      '/objects': backend,
    },
  },
  preview: {
    port: 7175,
    proxy: {
      '/api': backend,
      '/objects': backend,
    },
  },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
  },
});
