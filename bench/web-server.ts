/**
 * The portal as `npm run bench -- web` measures it: the production server (built SPA, PGlite in a
 * temporary folder, the demo data of SEED_DAYS days) in a process of its own, so the browser's and
 * Lighthouse's work does not share its event loop. Prints one JSON line {address, token} (a signed-in
 * session of the demo group user) once listening on BENCH_PORT (or a free port); exits when its stdin closes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../apps/api/src/db/db';
import { migrate } from '../apps/api/src/db/migrate';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { systemClock } from '../apps/api/src/lib/clock';
import { createMailer } from '../apps/api/src/plugins/mail';
import { firstStart } from '../apps/api/src/startup';
import { signedInToken } from './api-server';
import { benchPort } from './check';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-web-'));
// SERVER_RENDERING=off: the lists without server rendering (decision 050), for a before/after comparison.
const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, SEED_DAYS: process.env.SEED_DAYS ?? '7', SERVER_RENDERING: process.env.SERVER_RENDERING ?? '' });
const db = await openDb({ dataDir });
await migrate(db);
const deps = { config, db, clock: systemClock, mailer: createMailer({ outboxDir: path.join(dataDir, 'outbox'), from: config.mailFrom }) };
await firstStart(deps);
const token = await signedInToken(db);
// Served as in production (no development routes).
const app = await buildApp({ ...deps, config: { ...config, env: 'production', ...(process.env.WEB_DIST ? { webDist: process.env.WEB_DIST } : {}) } });
const address = await app.listen({ port: benchPort(), host: '127.0.0.1' });
console.log(JSON.stringify({ address, token }));
process.stdin.resume();
process.stdin.on('end', async () => {
  await app.close();
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
