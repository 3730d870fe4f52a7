/**
 * The daily settlement run from the command line:
 *   npm run settle                                   catch up every date not run, through yesterday
 *   npm run settle -- --from 2026-01-01 --to 2026-03-31
 * Uses DATABASE_URL (PostgreSQL) or the PGlite data directory, like the server. Idempotent.
 */
import { loadConfig } from '../config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { assertDayOver, firstPendingDate, lastSettleableDate, settleRange, settleThrough, type RunResult } from '../modules/payments/settlement/settle.run';
import { recordFailure, recordRuns } from '../modules/payments/settlement/settle.log';
import { isDate } from '../modules/payments/time';
import { AppError } from '../lib/errors';
import { t } from '../lib/messages';
import { parseArgs, progressBar } from './args';
// The modules' message catalogues (lib/messages.ts names no module).
import '../modules/messages';

const args = parseArgs(process.argv.slice(2));
if (args.help) {
  console.log('usage: npm run settle -- [--from YYYY-MM-DD] [--to YYYY-MM-DD]   (default: catch up through yesterday)');
  process.exit(0);
}
const config = loadConfig();
const yesterday = lastSettleableDate(new Date(), config.platformTz);
const from = typeof args.from === 'string' ? args.from : undefined;
const to = typeof args.to === 'string' ? args.to : yesterday;
for (const [k, v] of [
  ['from', from],
  ['to', to],
] as const) {
  if (v !== undefined && !isDate(v)) {
    console.error(`--${k} must be a date YYYY-MM-DD`);
    process.exit(2);
  }
}
if (from && from > to) {
  console.error('--from is after --to');
  process.exit(2);
}
// The back office's rule (a day is run once it is over in the platform zone), in its message.
try {
  assertDayOver(to, new Date(), config.platformTz);
} catch (err) {
  console.error(err instanceof AppError ? t('en', err.key, err.params) : String(err));
  process.exit(2);
}
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  const bar = progressBar('settle');
  let txns = 0;
  let startedAt = new Date();
  const onDate = async (r: RunResult, i: number, n: number) => {
    txns += r.txnCount;
    await recordRuns(db, 'cli', [r], startedAt, new Date());
    startedAt = new Date();
    bar.update(i + 1, n, `${r.date} · ${txns} txns`);
  };
  const t0 = Date.now();
  const runs = from ? await settleRange(db, from, to, onDate) : await settleThrough(db, to, onDate);
  bar.done();
  const ran = runs.filter((r) => !r.skipped);
  const rows = ran.reduce((a, r) => a + r.rowCount, 0);
  const transfers = ran.reduce((a, r) => a + r.transfers, 0);
  const unconverted = ran.reduce((a, r) => a + r.unconverted, 0);
  console.log(
    ran.length
      ? `Settled ${ran.length} date(s) ${ran[0].date} … ${ran[ran.length - 1].date}: ${txns} transactions, ${rows} settlement rows, ${transfers} transfers` +
          (unconverted ? `, ${unconverted} waiting for an FX rate` : '') +
          ` (${runs.length - ran.length} already done) in ${((Date.now() - t0) / 1000).toFixed(1)} s`
      : `Nothing to settle: ${from ? `${from} … ${to}` : `every date through ${to}`} was already settled (no changes).`,
  );
} catch (err) {
  const date = await firstPendingDate(db).catch(() => null);
  if (date) await recordFailure(db, 'cli', date, err, new Date(), new Date()).catch(() => undefined);
  console.error(`settle failed: ${err instanceof AppError ? t('en', err.key, err.params) : err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
