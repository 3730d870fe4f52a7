import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';
import { pureContract } from './build/pure-contract.ts';
import { lazyParts } from './build/lazy-parts.ts';
import { antdStyles } from './build/antd-styles.ts';
import { ssrDynamicImport } from './build/ssr-dynamic-import.ts';
import { zeroRuntimeStyles } from './build/zero-runtime-styles.ts';

/** antd and what it is built on: one chunk of what many screens share (below). */
const ANTD_SHARED =
  /node_modules[\\/](antd|@rc-component|@ant-design[\\/](cssinjs|cssinjs-utils|fast-color|colors|icons[\\/])|@tanstack|stylis|@emotion|clsx|throttle-debounce|compute-scroll-into-view|scroll-into-view-if-needed|@babel)/;
/**
 * Parts of antd that many screens share but the transaction list does not draw at its first paint
 * (issue 52: the list's JavaScript budget): the virtual list of a select's options (drawn when the
 * select opens; its option list is a lazy part, build/lazy-parts.ts). Kept out of the shared chunk,
 * which the list loads whole. Only parts nothing in the shared chunk imports: a chunk the shared one
 * imports and that imports it back runs before it (keeping modal out made modal's texts run before
 * antd's locale: an undefined at start-up on the dashboard and the reports).
 */
const NOT_FIRST_PAINT = /node_modules[\\/]@rc-component[\\/]virtual-list[\\/]/;

const api = process.env.API_URL ?? 'http://localhost:8080';

/**
 * `vite build --ssr src/entry-server.tsx` (decision 050): the server-side renderer, one module with
 * every dependency bundled, written to dist-ssr/ and loaded by the API (never served).
 */
const ssrBuild = defineConfig({
  root: import.meta.dirname,
  // ssrDynamicImport: no `import(` left in the renderer, so tsx does not attach a 100 MB source map to it (issue 52).
  plugins: [pureContract(), antdStyles(), react(), ssrDynamicImport()],
  ssr: { noExternal: true, target: 'node' },
  // @ant-design/icons answers Node's `import` with index.mjs, a wrapper of its CommonJS build that
  // requires all ~800 icons (2.9 MB of the renderer, issue 52): its ES build, as the browser gets,
  // keeps only the icons the screens use.
  resolve: { alias: [{ find: /^@ant-design\/icons$/, replacement: '@ant-design/icons/es' }] },
  // The renderer is a production build whatever the server's NODE_ENV: React's and antd's development
  // builds (checks, warnings) took twice the CPU per render.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist-ssr',
    emptyOutDir: true,
    target: 'node22',
    copyPublicDir: false,
    minify: false,
    rolldownOptions: { output: { codeSplitting: false } },
  },
});

export default defineConfig((env) => (env.isSsrBuild ? ssrBuild : clientBuild));

const clientBuild = defineConfig({
  root: import.meta.dirname,
  // pureContract: the contract's unused zod schemas (and zod) stay out of the bundle (issue 16).
  // lazyParts: parts of antd components our screens do not draw load only when drawn (issue 16).
  // zeroRuntimeStyles: antd's style functions, never run in the browser (zero-runtime, decision 081).
  plugins: [pureContract(), lazyParts(), zeroRuntimeStyles(), antdStyles(), react(), precompress()],
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
    // The locale texts are fetched as JSON files (lib/i18n.ts): never inlined into the script as data: URLs.
    assetsInlineLimit: (file) => (file.endsWith('.json') ? false : undefined),
    // Read by `npm run bench -- web` (what each route loads).
    manifest: true,
    // Two pages: the portal, and the buyers' hosted checkout (served by the API for GET /pay/*).
    rolldownOptions: {
      input: { main: `${import.meta.dirname}/index.html`, pay: `${import.meta.dirname}/pay.html` },
      output: {
        // Chunks (issue 16, target 6). Left to itself the bundler cut antd into ~150 files along
        // the lines of which screens use each module; the transaction list fetched 156 files, and
        // small files compress badly (the same scripts in one file are 12 % smaller gzipped).
        codeSplitting: {
          groups: [
            // What the sign-in page needs besides its own code: one chunk, and never antd with it.
            { name: 'base', test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|use-sync-external-store)[\\/]/, priority: 30 },
            // antd's core and what most screens share (used by 20 or more of the lazy chunks).
            // Not its dependencies (React is in `base`; the login page's icons stay out of it).
            {
              name: 'antd',
              test: (id: string) => ANTD_SHARED.test(id) && !NOT_FIRST_PAINT.test(id),
              minShareCount: 20,
              priority: 10,
              includeDependenciesRecursively: false,
            },
            // The icons several screens draw, in one file (each was a file of its own, 1 KB or less), but
            // not the glyphs the sign-in page draws itself (components/light): those stay apart, so the
            // sign-in page never loads this chunk (and with it antd's).
            {
              name: 'icons',
              test: (id: string) =>
                /node_modules[\\/]@ant-design[\\/]icons[\\/]es[\\/]icons[\\/]/.test(id) ||
                (/node_modules[\\/]@ant-design[\\/]icons-svg[\\/]es[\\/]asn[\\/]/.test(id) &&
                  !/[\\/](BarChart|EyeInvisible|Eye|Global|Link|Lock|SafetyCertificate|Safety|User|Wechat)Outlined\.js$/.test(id)),
              minShareCount: 6,
              priority: 5,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
