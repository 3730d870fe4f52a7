/**
 * Imports a gateway's daily transaction file (CSV or JSON lines, docs/integration.md):
 *   npm run import -- FILE --connection ID
 * Prints the file's report (rows read, accepted, duplicate, rejected with line numbers and reasons).
 * Importing a file again adds nothing; an import cut short resumes where it stopped.
 */
import { loadConfig } from '../config';
import path from 'node:path';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { systemClock } from '../lib/clock';
import { createMailer } from '../plugins/mail';
import { initModules } from '../modules/registry';
import { importFile, type ImportReport } from '../modules/gateway/import.service';
import { parseArgs } from './args';

const [file, ...rest] = process.argv.slice(2);
const usage = 'usage: npm run import -- FILE --connection ID';
let args: Record<string, string | true> = {};
try {
  args = parseArgs(rest);
} catch (e) {
  console.error(`${(e as Error).message}\n${usage}`);
  process.exit(2);
}
if (!file || file.startsWith('--') || typeof args.connection !== 'string') {
  console.error(usage);
  process.exit(2);
}
const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  // The feed settles operations (a charge's order follows it through the modules' hooks).
  initModules({ config, db, clock: systemClock, mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mailFrom }) });
  const t0 = Date.now();
  const r = await importFile(db, file, { connectionId: args.connection, platformTz: config.platformTz, window: config.feedWindow });
  printReport(r, (Date.now() - t0) / 1000);
  if (r.rejected || r.controlOk === false) process.exitCode = 3;
} catch (err) {
  console.error(`import failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}

function printReport(r: ImportReport, secs: number) {
  if (r.alreadyImported) {
    console.log(`${r.fileName} was already imported (file #${r.fileId}): nothing added.`);
  } else {
    console.log(`${r.fileName} (file #${r.fileId}${r.resumedAfterLine ? `, resumed after line ${r.resumedAfterLine}` : ''}) in ${secs.toFixed(1)} s`);
  }
  console.log(`rows read ${r.rowsRead} · accepted ${r.accepted} · duplicate ${r.duplicate} · rejected ${r.rejected} · control totals ${r.controlOk ? 'match' : 'DO NOT MATCH'}`);
  if (r.message) console.log(`  ${r.message}`);
  for (const e of r.errors) console.log(`  line ${e.line}${e.gwGTransId ? ` ${e.gwGTransId}` : ''}: [${e.code}] ${e.msg}`);
  if (r.rejected > r.errors.length) console.log(`  … ${r.rejected - r.errors.length} more in table import_file_error (file_id ${r.fileId})`);
}
