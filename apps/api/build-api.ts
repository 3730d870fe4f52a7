/**
 * The API server as one ES module, apps/api/dist/server.mjs (issue 52, decision 077), which
 * `npm run serve` and the e2e suites run with plain Node — no TypeScript loader in the serving
 * process: tsx's hooks, its lexer and the sources it keeps cost ~60 MB of a process at rest, and its
 * start was 3× slower. Our own code and @portal/contract are bundled; every package of node_modules
 * stays an import resolved at run time as before (PGlite finds its WebAssembly, the PDF fonts their
 * files). Not minified: stack traces name our functions; the linked source map maps them to the
 * TypeScript (`NODE_OPTIONS=--enable-source-maps`, ~35 MB more heap).
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = import.meta.dirname;
export const API_BUNDLE = path.join(root, 'dist/server.mjs');

/**
 * The Node options the bundle is served with — by `npm run serve` (package.json, the same flags; a
 * test compares), the e2e suites and the memory bench. `--max-semi-space-size=4` (MB): V8's young
 * generation grows to 16 MB a semi-space under load and its pages stay resident after; capped at 4,
 * the RSS after the memory bench's mixed load was 322 MB instead of 519 (idle 193 / 212 MB), with no
 * loss of requests/s in wrk (docs/performance-journal.md, session twenty-six; issue 52).
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=4'];
const SOURCES = [path.join(root, 'src'), path.resolve(root, '../../packages/contract/src')];

export async function buildApi(): Promise<{ bytes: number; sources: number; ms: number }> {
  const t0 = performance.now();
  // Written beside and renamed into place: a server starting meanwhile reads the old file or the new, never half.
  const tmp = path.join(root, `dist/.server.${process.pid}.mjs`);
  const result = await build({
    entryPoints: [path.join(root, 'src/server.ts')],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    // A bare import is a package of node_modules, left to Node — but the workspace's contract is
    // TypeScript sources, bundled.
    plugins: [
      {
        name: 'packages-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith('@portal/') ? undefined : { external: true }));
        },
      },
    ],
  });
  // The map is named after the file it maps: rewrite the comment to the final name.
  const code = fs.readFileSync(tmp, 'utf8').replace(/\/\/# sourceMappingURL=\.server\.\d+\.mjs\.map\s*$/, '//# sourceMappingURL=server.mjs.map\n');
  fs.writeFileSync(tmp, code);
  fs.renameSync(`${tmp}.map`, `${API_BUNDLE}.map`);
  fs.renameSync(tmp, API_BUNDLE);
  return { bytes: Buffer.byteLength(code), sources: Object.keys(result.metafile.inputs).length, ms: Math.round(performance.now() - t0) };
}

/** Whether dist/server.mjs exists and is newer than every source it is built from. */
export function apiBundleIsFresh(): boolean {
  if (!fs.existsSync(API_BUNDLE)) return false;
  const built = fs.statSync(API_BUNDLE).mtimeMs;
  const newer = (dir: string): boolean =>
    fs.readdirSync(dir, { withFileTypes: true }).some((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? newer(p) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && fs.statSync(p).mtimeMs > built;
    });
  return !SOURCES.some(newer);
}
