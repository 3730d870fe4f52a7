import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { MIGRATIONS_DIR } from './db/migrate';
import { API_ROOT } from './lib/package-root';

describe('configuration (issue 52)', () => {
  it("PGlite's shared buffers: 32MB unless PGLITE_SHARED_BUFFERS says a size; anything else is refused by name", () => {
    expect(loadConfig({}).pgliteSharedBuffers).toBe('32MB');
    expect(loadConfig({ PGLITE_SHARED_BUFFERS: '64MB' }).pgliteSharedBuffers).toBe('64MB');
    for (const bad of ['lots', '64', '64 MB', '64MB; DROP', '999999MB']) expect(() => loadConfig({ PGLITE_SHARED_BUFFERS: bad })).toThrow(/PGLITE_SHARED_BUFFERS/);
  });

  it('the API folder, the migrations and the web build are found from the package root (the same from src/ and from dist/server.mjs)', () => {
    expect(fs.existsSync(path.join(API_ROOT, 'package.json'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(API_ROOT, 'package.json'), 'utf8')).name).toBe('@portal/api');
    expect(MIGRATIONS_DIR).toBe(path.join(API_ROOT, 'migrations'));
    expect(fs.readdirSync(MIGRATIONS_DIR).some((f) => f.endsWith('.sql'))).toBe(true);
    expect(loadConfig({}).webDist).toBe(path.resolve(API_ROOT, '../web/dist'));
  });
});
