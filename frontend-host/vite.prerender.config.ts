import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { workspaceAliases } from '../vite.aliases';

/**
 * The build-time prerender of the landing page (scripts/prerender-landing.mjs): the same components for
 * Node, without Module Federation (nothing is shared at build time). CSS modules get the same class names
 * as in the browser build (same files, same default naming).
 */
export default defineConfig({
  plugins: [react()],
  resolve: {
    // @app/contracts, @app/contracts/rules, @app/contracts/api-client, @app/ui, @app/ui/tokens.css…: the packages' exports, at their sources.
    alias: workspaceAliases(),
  },
  build: {
    ssr: 'src/prerender.tsx',
    outDir: 'dist-prerender',
    emptyOutDir: true,
    target: 'node20',
  },
});
