/**
 * The provider's back office, from the command line (stands in for its approval screen):
 *   npm run approve -- bank-request 12 [--reason TEXT]            approve bank-account change request 12
 *   npm run approve -- bank-request 12 --reject --reason TEXT     reject it
 * The same service as the back office's Approvals (issue 26): the merchant gets a notice, the
 * requester an e-mail. Uses DATABASE_URL (PostgreSQL) or the PGlite data directory, like the server. Audited.
 */
import path from 'node:path';
import { loadConfig } from '../config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { systemClock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { t } from '../lib/messages';
import { createMailer } from '../plugins/mail';
import { decideBankChange } from '../modules/ops/approvals.service';
// The modules' message catalogues (lib/messages.ts names no module).
import '../modules/messages';

const argv = process.argv.slice(2);
const [what, idText] = argv;
if (what !== 'bank-request' || !/^\d+$/.test(idText ?? '')) {
  console.error('usage: npm run approve -- bank-request N [--reject] [--reason TEXT]');
  process.exit(2);
}
const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  const reject = argv.includes('--reject');
  const at = argv.indexOf('--reason');
  const reason = at > 0 && argv[at + 1] ? argv[at + 1] : reject ? 'rejected by the provider' : 'approved by the provider';
  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mailFrom });
  const deps = { config, db, clock: systemClock, mailer };
  const res = await decideBankChange(deps, Number(idText), reject ? 'REJECTED' : 'APPROVED', reason, { cli: true }, 'en', { userAgent: 'cli' });
  console.log(`bank request ${res.id} of merchant ${res.merId}: ${res.status}${res.accountId ? ` (account ${res.accountId})` : ''}`);
} catch (err) {
  console.error(err instanceof AppError ? t('en', err.key, err.params) : (err as Error).message);
  process.exitCode = 1;
} finally {
  await db.close();
}
