/**
 * The provider's back office, from the command line (stands in for its approval screen):
 *   npm run approve -- bank-request 12            approve bank-account change request 12
 *   npm run approve -- bank-request 12 --reject   reject it
 * Uses DATABASE_URL (PostgreSQL) or the PGlite data directory, like the server. Audited.
 */
import { userInfo } from 'node:os';
import { loadConfig } from '../config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { decideBankRequest } from '../modules/merchant/bank-request.service';

const argv = process.argv.slice(2);
const [what, idText] = argv;
if (what !== 'bank-request' || !/^\d+$/.test(idText ?? '')) {
  console.error('usage: npm run approve -- bank-request N [--reject]');
  process.exit(2);
}
const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  const by = `back-office:${process.env.APPROVER ?? userInfo().username}`;
  const res = await decideBankRequest(db, Number(idText), argv.includes('--reject') ? 'REJECTED' : 'APPROVED', by, new Date());
  console.log(`bank request ${res.id} of merchant ${res.merId}: ${res.status}${res.accountId ? ` (account ${res.accountId})` : ''}`);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await db.close();
}
