/**
 * Reconciles the gateway feed of a day (issue 25 §3; the daily job does yesterday):
 *   npm run reconcile -- --date 2026-03-01 [--connection ID]
 * Lists the differences found per connection (stored in recon_difference).
 */
import { loadConfig } from '../config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { isDate } from '../modules/payments/time';
import { listDifferences, reconcileDay } from '../modules/gateway/recon.service';
import { parseArgs } from './args';

let args: Record<string, string | true>;
try {
  args = parseArgs(process.argv.slice(2));
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
const date = args.date;
if (typeof date !== 'string' || !isDate(date)) {
  console.error('usage: npm run reconcile -- --date YYYY-MM-DD [--connection ID]');
  process.exit(2);
}
const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  const results = await reconcileDay(db, date, { platformTz: config.platformTz, connectionId: typeof args.connection === 'string' ? args.connection : undefined });
  if (!results.length) console.log('No gateway connection to reconcile.');
  for (const r of results) {
    console.log(
      `${r.connectionId} ${r.date}: missing ${r.missing} · extra ${r.extra} · amount ${r.amount} · status ${r.status} · unreported ${r.unreported} · control totals ${r.controlTotals ? `${r.total} differ` : 'none received'}`,
    );
  }
  for (const d of await listDifferences(db, date, null)) {
    console.log(`  [${d.kind}] ${d.connectionId} ${d.gwTransId ?? ''} ${d.merId ?? ''} ${JSON.stringify(d.detail)}`);
  }
} catch (err) {
  console.error(`reconcile failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
