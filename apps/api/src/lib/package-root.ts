import fs from 'node:fs';
import path from 'node:path';

/**
 * The API package's folder (apps/api): the nearest folder above this file with a package.json. The
 * same whether the server runs from its sources (apps/api/src/…, through tsx) or from its build
 * (apps/api/dist/server.mjs, `npm run build:api`), so the migrations and the web app's build are
 * found from either.
 */
export const API_ROOT = ((): string => {
  let dir = import.meta.dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${import.meta.dirname}`);
    dir = up;
  }
  return dir;
})();
