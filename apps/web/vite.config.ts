import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';
import { pureContract } from './build/pure-contract.ts';

const api = process.env.API_URL ?? 'http://localhost:8080';

export default defineConfig({
  root: import.meta.dirname,
  // pureContract: the contract's unused zod schemas (and zod) stay out of the bundle (issue 16).
  plugins: [pureContract(), react(), precompress()],
  server: {
    port: 5173,
    // The API (npm run dev:api) serves /api and the development mailbox.
    proxy: { '/api': api, '/dev': api },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 900,
    // Read by `npm run bench -- web` (what each route loads).
    manifest: true,
    // Two pages: the portal, and the buyers' hosted checkout (served by the API for GET /pay/*).
    rollupOptions: { input: { main: `${import.meta.dirname}/index.html`, pay: `${import.meta.dirname}/pay.html` } },
  },
});
