/**
 * A backup of the portal (docs/operations.md):
 *   npm run backup -- --out DIR
 * writes the database (PostgreSQL: pg_dump custom format; PGlite: its data-directory dump — stop
 * the server first) and DATA_DIR's files (exports, attachments) to the new or empty folder DIR.
 * Uses DATABASE_URL or DATA_DIR like the server.
 */
import { loadConfig } from '../config';
import { backup } from '../ops/backup';
import { parseArgs } from './args';

const USAGE = 'usage: npm run backup -- --out DIR';
const args = parseArgs(process.argv.slice(2));
if (args.help || typeof args.out !== 'string') {
  console.log(USAGE);
  process.exit(args.help ? 0 : 2);
}
try {
  const m = await backup(loadConfig(), args.out);
  const rows = Object.values(m.rows).reduce((a, b) => a + b, 0);
  console.log(
    `backup of ${m.engine} written to ${args.out}: ${Object.keys(m.rows).length} tables, ${rows} rows, ${m.files.count} files (${m.files.bytes} bytes; ${m.referencedFiles ?? 0} of them referred to by rows) in ${m.seconds} s`,
  );
  // Rows that pointed at nothing in DATA_DIR before the backup (a file deleted by hand): named, so they can be looked into.
  if (m.missingFiles?.length)
    console.warn(
      `warning: ${m.missingFiles.length} file(s) the database refers to were already missing from DATA_DIR (listed in manifest.json): ${m.missingFiles.slice(0, 10).join(', ')}${m.missingFiles.length > 10 ? ', …' : ''}`,
    );
} catch (err) {
  console.error(`backup failed: ${(err as Error).message}`);
  process.exit(1);
}
