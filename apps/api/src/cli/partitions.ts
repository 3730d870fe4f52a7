/**
 * The ledgers' monthly partitions (decision 028):
 *   npm run partitions                                   list the months of txn and audit_log
 *   npm run partitions -- --ensure                       create this month and the next three
 *   npm run partitions -- --archive txn --month 2026-01 --out DIR [--drop]
 *                                                        detach a past month, write it to DIR/<partition>.csv,
 *                                                        and with --drop remove it from the database
 * Uses DATABASE_URL (PostgreSQL) or the PGlite data directory, like the server.
 */
import { loadConfig } from '../config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { archiveMonth, ensureAhead, listMonths, PARTITIONED, type PartitionedTable } from '../db/partitions';
import { parseArgs } from './args';

const USAGE = 'usage: npm run partitions [-- --ensure | -- --archive txn|audit_log --month YYYY-MM --out DIR [--drop]]';
const args = parseArgs(process.argv.slice(2));
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  if (args.ensure) {
    console.log(`created ${await ensureAhead(db, new Date())} month(s)`);
  } else if (args.archive) {
    const table = args.archive;
    if (typeof table !== 'string' || !(PARTITIONED as readonly string[]).includes(table)) throw new Error(`--archive takes one of ${PARTITIONED.join(', ')}`);
    if (typeof args.month !== 'string' || typeof args.out !== 'string') throw new Error(USAGE);
    const r = await archiveMonth(db, table as PartitionedTable, args.month, new Date(), args.out, { drop: args.drop === true });
    console.log(`${r.rows} row(s) written to ${r.file}${r.dropped ? '; the month is dropped' : '; the month is detached (an ordinary table now)'}`);
  } else {
    for (const table of PARTITIONED) {
      for (const m of await listMonths(db, table)) {
        const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${m.name}`);
        console.log(`${m.name.padEnd(20)} ${m.from.toISOString()} … ${m.to.toISOString()} ${String(rows[0].n).padStart(12)} rows`);
      }
    }
  }
} catch (err) {
  console.error(`partitions: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
