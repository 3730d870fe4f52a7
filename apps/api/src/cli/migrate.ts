/**
 * Migrates the database and ends (issue 46: the last step of `npm run setup:production`):
 *   npm run migrate
 * Uses DATABASE_URL (PostgreSQL) or the PGlite data directory, like the server, which migrates on
 * start too: run here, a database that cannot be reached or migrated (a wrong URL, a role that
 * does not own the database) is told at set-up, not at the first start. Applies the migrations not
 * applied yet (forward-only, apps/api/migrations), one transaction; running it again changes nothing.
 */
import { loadConfig } from '../config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';

const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const applied = await migrate(db);
  const where = config.databaseUrl ? `PostgreSQL ${new URL(config.databaseUrl).host}${new URL(config.databaseUrl).pathname}` : `PGlite in ${config.dataDir}`;
  console.log(applied.length ? `Migrated ${where}: ${applied.length} migration(s) applied, the last ${applied[applied.length - 1]}.` : `${where} is up to date (no migration to apply).`);
} catch (err) {
  console.error(`migrate failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
