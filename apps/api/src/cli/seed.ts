/**
 * Demo data generator:
 *   npm run seed -- --merchants N --days D --per-day K [--seed S] [--end YYYY-MM-DD]
 * N new merchants besides the four demo ones (0: demo merchants only), D days ending at --end
 * (default today, platform zone), K transactions per merchant and day on average. Everything goes
 * through ingestion and the daily settlement run. Deterministic for a seed on a fresh database.
 * Uses DATABASE_URL (PostgreSQL) or the PGlite data directory, like the server.
 */
import { randomInt } from 'node:crypto';
import { loadConfig } from '../config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { AppError } from '../lib/errors';
import { t } from '../lib/messages';
import { isEmpty, seedFoundation } from '../seed/foundation.seed';
import { generateDemoData } from '../seed/demo-data';
import { isDate } from '../modules/payments/time';
import { seedDemoDisputes } from '../modules/disputes';
import { systemClock } from '../lib/clock';
import { intArg, parseArgs, progressBar } from './args';
// The modules' message catalogues (lib/messages.ts names no module).
import '../modules/messages';

const args = parseArgs(process.argv.slice(2));
if (args.help) {
  console.log('usage: npm run seed -- --merchants N --days D --per-day K [--seed S] [--end YYYY-MM-DD]');
  process.exit(0);
}
const config = loadConfig();
if (config.env === 'production') {
  console.error('The demo data generator is refused when NODE_ENV=production.');
  process.exit(2);
}
const opts = {
  merchants: intArg(args, 'merchants', 0, 0, 100_000),
  days: intArg(args, 'days', 90, 1, 3660),
  perDay: intArg(args, 'per-day', 100, 1, 1_000_000),
  seed: typeof args.seed === 'string' ? args.seed : String(randomInt(1, 1_000_000)),
  end: typeof args.end === 'string' ? args.end : undefined,
};
if (opts.end && !isDate(opts.end)) {
  console.error('--end must be a date YYYY-MM-DD');
  process.exit(2);
}
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  if (await isEmpty(db)) await seedFoundation(db, { env: config.env });
  console.log(`Generating ${opts.days} day(s) for ${opts.merchants} new + 4 demo merchants, ~${opts.perDay} transactions per merchant and day, seed ${opts.seed}`);
  const bar = progressBar('seed');
  const s = await generateDemoData(db, {
    ...opts,
    platformTz: config.platformTz,
    onProgress: (p) => bar.update(p.done, p.total, `${p.date} · ${p.txns} txns`),
  });
  bar.done();
  const secs = s.ms.total / 1000;
  console.log(
    `Done: ${s.txns} transactions ${s.from} … ${s.to} for ${s.merchants.length} merchants, settled through ${s.settledThrough ?? '—'} ` +
      `(${s.runs.filter((r) => !r.skipped).length} runs), ${s.fxRates} FX rates, in ${secs.toFixed(1)} s (${Math.round(s.txns / secs)} transactions/s).`,
  );
  // Issue 48: the sandbox's disputes on each demo merchant's recent purchases (every kind and state,
  // one due tomorrow), through the provider API's receive path; a merchant with disputes is left alone.
  const disputes = await seedDemoDisputes({ db, clock: systemClock, config });
  if (disputes) console.log(`${disputes} sandbox dispute(s) raised on the demo merchants' purchases.`);
  const late = s.runs.filter((r) => r.skipped).length;
  if (late) console.log(`${late} date(s) had been settled before: their new transactions settle in the next run.`);
} catch (err) {
  console.error(`seed failed: ${err instanceof AppError ? t('en', err.key, err.params) : err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
