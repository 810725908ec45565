import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { workspaceAliases } from '../vite.aliases';

/**
 * The public listing pages' own entry (DESIGN §6): no Module Federation runtime, no wizard code.
 * - client build: `frontend-host/dist/listing-assets/` (served like the host's files) + a manifest the server reads;
 * - SSR build (`--ssr`): `frontend-host/dist-ssr/entry-server.cjs`, which the backend requires to render pages.
 */
export default defineConfig(({ isSsrBuild }) => ({
  base: '/',
  plugins: [react()],
  resolve: {
    // @app/contracts, @app/contracts/rules, @app/contracts/api-client, @app/ui, @app/ui/tokens.css…: the packages' exports, at their sources.
    alias: workspaceAliases(),
  },
  publicDir: false,
  build: isSsrBuild
    ? {
        target: 'node20',
        outDir: 'dist-ssr',
        emptyOutDir: true,
        rollupOptions: { output: { format: 'cjs', entryFileNames: 'entry-server.cjs' } },
      }
    : {
        target: 'es2022',
        outDir: 'dist',
        // The host's build (run just before) owns dist/; this one adds its folder and manifest.
        emptyOutDir: false,
        assetsDir: 'listing-assets',
        manifest: '.vite/listing-manifest.json',
        rollupOptions: { input: { listing: 'src/listing-page/entry-client.tsx' } },
      },
}));
