/**
 * The built SPA the benches serve (apps/web/dist and its server-side renderer), built here when it is
 * missing or older than a source of the web app or the contract — so that a bench runs on a fresh
 * clone with nothing done before (issue 52), as the API's bundle is (apps/api/build-api.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = path.resolve(import.meta.dirname, '..');
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');
const BUILT = path.join(WEB_DIST, 'index.html');
const SOURCES = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contract/src'].map((p) => path.join(ROOT, p));

export function webBuildIsFresh(): boolean {
  if (!fs.existsSync(BUILT)) return false;
  const built = fs.statSync(BUILT).mtimeMs;
  const newer = (p: string): boolean => {
    if (!fs.existsSync(p)) return false;
    const st = fs.statSync(p);
    if (!st.isDirectory()) return !p.endsWith('.test.ts') && !p.endsWith('.test.tsx') && st.mtimeMs > built;
    return fs.readdirSync(p).some((name) => newer(path.join(p, name)));
  };
  return !SOURCES.some(newer);
}

/** Builds the SPA (`npm run build -w @portal/web`) unless it is fresh; returns whether it built. */
export function ensureWebBuild(log: (s: string) => void = console.log): boolean {
  if (webBuildIsFresh()) return false;
  const t0 = performance.now();
  const npm = process.env.npm_execpath;
  const r = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build', '-w', '@portal/web'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
    : spawnSync('npm', ['run', 'build', '-w', '@portal/web'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`the web build failed (exit ${r.status ?? r.signal})`);
  log(`  web app built (${Math.round((performance.now() - t0) / 1000)} s): it was missing or older than its sources`);
  return true;
}
