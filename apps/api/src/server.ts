import path from 'node:path';
import { loadConfig } from './config';
import { openDb } from './db/db';
import { migrate } from './db/migrate';
import { systemClock } from './lib/clock';
import { createMailer } from './plugins/mail';
import { buildApp } from './app';
import { DEMO } from './seed/foundation.seed';
import { firstStart, startBackground } from './startup';

const started = Date.now();
const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await migrate(db);
const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mailFrom });
const deps = { config, db, clock: systemClock, mailer };
const seeded = await firstStart(deps);
const app = await buildApp(deps, { logger: true });
const stopBackground = startBackground(deps, app.log);
await app.listen({ port: config.port, host: config.host });

const url = `http://localhost:${config.port}/`;
const lines = [
  '',
  `  Merchant portal is running at ${url}`,
  `  Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${path.join(config.dataDir, 'pg')}`}${seeded ? ' — demo data seeded' : ''}`,
  config.seedDemo ? `  Demo sign-in: user "${DEMO.users.demo}" (or "${DEMO.users.sub}"), password "${DEMO.password}", code from the e-mail` : '',
  `  Development e-mail goes to: ${mailer.target}${config.smtpUrl ? '' : ` — ${url}dev/mailbox`}`,
  `  API description: ${url}api/docs`,
  `  Ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  '',
].filter((l) => l !== '');
console.log(['', ...lines, ''].join('\n'));

let closing = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, async () => {
    if (closing) return;
    closing = true;
    stopBackground();
    await app.close();
    await db.close();
    process.exit(0);
  });
}
