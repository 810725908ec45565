import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The build-time prerender of the landing page (scripts/prerender-landing.mjs): the same components for
 * Node, without Module Federation (nothing is shared at build time). CSS modules get the same class names
 * as in the browser build (same files, same default naming).
 */
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@app/contracts': fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)),
    },
  },
  build: {
    ssr: 'src/prerender.tsx',
    outDir: 'dist-prerender',
    emptyOutDir: true,
    target: 'node20',
  },
});
