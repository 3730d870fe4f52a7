import fs from 'node:fs';
import path from 'node:path';

/** apps/web/src: the tree the guard tests read. */
export const WEB_SRC = path.resolve(import.meta.dirname, '..');

/** Every non-test .ts/.tsx file under `dir` (the guard tests: no hand URLs, no hand query keys). */
export const sourceFiles = (dir: string = WEB_SRC): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [p] : [];
  });
