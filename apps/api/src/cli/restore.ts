/**
 * Restores a backup (docs/operations.md):
 *   npm run restore -- --from DIR [--force]
 * into the database of DATABASE_URL (or DATA_DIR's PGlite) and DATA_DIR's files. A database that
 * holds anything is refused without --force; with it, the database and the files are replaced.
 * Stop the server first.
 */
import { loadConfig } from '../config';
import { restore, RestoreRefused } from '../ops/backup';
import { parseArgs } from './args';

const USAGE = 'usage: npm run restore -- --from DIR [--force]';
const args = parseArgs(process.argv.slice(2));
if (args.help || typeof args.from !== 'string') {
  console.log(USAGE);
  process.exit(args.help ? 0 : 2);
}
try {
  const r = await restore(loadConfig(), args.from, { force: args.force === true });
  console.log(`restored the ${r.manifest.engine} backup of ${r.manifest.createdAt} (${Object.keys(r.manifest.rows).length} tables, rows checked against its manifest) in ${r.seconds} s`);
} catch (err) {
  console.error(`restore ${err instanceof RestoreRefused ? 'refused' : 'failed'}: ${(err as Error).message}`);
  process.exit(err instanceof RestoreRefused ? 3 : 1);
}
