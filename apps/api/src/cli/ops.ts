/**
 * The provider's back office from the command line (issue 26, decision 038):
 *   npm run ops -- add-operator --username alice --email alice@provider.example [--role administrator]
 * Creates an operator (not activated) and prints its activation link (72 hours): the operator
 * opens it, sets a password and an authenticator, then signs in at /ops/login. This is how the
 * first operator is made; later ones are invited from the back office (Operators). The same
 * service as the back office's invitation; audited as done by "cli".
 * Uses DATABASE_URL (PostgreSQL) or the PGlite data directory, and PUBLIC_URL for the link, like the server.
 */
import path from 'node:path';
import { OPS_ROLES, opsEmail, opsUsername, type OpsRole } from '@portal/contract';
import { loadConfig } from '../config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { systemClock } from '../lib/clock';
import { createMailer } from '../plugins/mail';
import { t } from '../lib/messages';
import { AppError } from '../lib/errors';
import { createOperator } from '../modules/ops/operators.service';
import { parseArgs } from './args';
// The modules' message catalogues (lib/messages.ts names no module).
import '../modules/messages';

const USAGE = `usage: npm run ops -- add-operator --username NAME --email ADDRESS [--role ${OPS_ROLES.join('|')}]`;
const [command, ...rest] = process.argv.slice(2);
let args: Record<string, string | true>;
try {
  args = parseArgs(rest);
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (command !== 'add-operator') {
  console.error(USAGE);
  process.exit(2);
}
const username = opsUsername.safeParse(typeof args.username === 'string' ? args.username : '');
const email = opsEmail.safeParse(typeof args.email === 'string' ? args.email : '');
const role = (typeof args.role === 'string' ? args.role : 'administrator') as OpsRole;
if (!username.success || !email.success || !OPS_ROLES.includes(role)) {
  console.error(
    `${!username.success ? 'a user name of 3–64 letters, digits, _ . @ - is needed' : !email.success ? 'a valid e-mail address is needed' : `the role is one of ${OPS_ROLES.join(', ')}`}\n${USAGE}`,
  );
  process.exit(2);
}
const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mailFrom });
  const deps = { config, db, clock: systemClock, mailer };
  const res = await createOperator(deps, { username: username.data, email: email.data, role }, { cli: true }, { userAgent: 'cli' });
  console.log(`operator ${username.data} (${role}) created, id ${res.id}. Activation link (72 hours, single use):\n${res.link}`);
} catch (err) {
  console.error(err instanceof AppError ? t('en', err.key, err.params) : (err as Error).message);
  process.exitCode = 1;
} finally {
  await db.close();
}
