/**
 * Gateway connections and signing keys (issue 25):
 *   npm run provider -- connection add --id acme --name "Acme Gateway" --merchants 100000000000001,100000000000002
 *   npm run provider -- connection list
 *   npm run provider -- connection merchants --id acme --merchants 100000000000001
 *   npm run provider -- key add --connection acme          (prints the secret once)
 *   npm run provider -- key revoke --key gk_…
 * Uses DATABASE_URL (PostgreSQL) or the PGlite data directory, like the server. Secrets are stored
 * encrypted with PROVIDER_KEY_ENCRYPTION_KEY (required in production).
 */
import { loadConfig } from '../config';
import { AppError } from '../lib/errors';
import { t } from '../lib/messages';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { addConnection, addKey, listConnections, revokeKey, setMerchants } from '../modules/gateway/gateway.service';
import { parseArgs } from './args';
// The modules' message catalogues (lib/messages.ts names no module).
import '../modules/messages';

const USAGE = `usage: npm run provider -- connection add --id ID --name NAME --merchants M1,M2
       npm run provider -- connection list
       npm run provider -- connection merchants --id ID --merchants M1,M2
       npm run provider -- key add --connection ID
       npm run provider -- key revoke --key KEY_ID`;

const [what, verb, ...rest] = process.argv.slice(2);
let args: Record<string, string | true>;
try {
  args = parseArgs(rest);
} catch (e) {
  console.error(`${(e as Error).message}\n${USAGE}`);
  process.exit(2);
}
const need = (name: string): string => {
  const v = args[name];
  if (typeof v !== 'string' || !v) {
    console.error(`--${name} is required\n${USAGE}`);
    process.exit(2);
  }
  return v;
};
const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  const actor = `cli:${process.env.USER ?? 'unknown'}`;
  if (what === 'connection' && verb === 'add') {
    const c = await addConnection(db, { id: need('id'), name: need('name'), merchants: list(need('merchants')) }, actor);
    console.log(`Connection ${c.id} (${c.name}) reports for ${c.merchants.join(', ')}. Next: npm run provider -- key add --connection ${c.id}`);
  } else if (what === 'connection' && verb === 'list') {
    for (const c of await listConnections(db)) {
      console.log(`${c.id}\t${c.name}\t${c.enabled ? 'enabled' : 'disabled'}\tmerchants: ${c.merchants.join(',')}`);
      for (const k of c.keys) console.log(`    key ${k.keyId}\tcreated ${k.createdAt.toISOString()}\t${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active'}`);
    }
  } else if (what === 'connection' && verb === 'merchants') {
    await setMerchants(db, need('id'), list(need('merchants')), actor);
    console.log('Merchants updated.');
  } else if (what === 'key' && verb === 'add') {
    const k = await addKey(db, config, need('connection'), actor);
    // The one place the secret is shown: to the operator's terminal, never to a log.
    console.log(`Key id:  ${k.keyId}\nSecret:  ${k.secret}\nGive both to the gateway team over a secure channel; the secret is not shown again.`);
  } else if (what === 'key' && verb === 'revoke') {
    await revokeKey(db, need('key'), new Date(), actor);
    console.log('Key revoked: requests signed with it are refused from now on.');
  } else {
    console.error(USAGE);
    process.exitCode = 2;
  }
} catch (err) {
  // An AppError (the sealing key missing or wrong: 503 on the API) in words, not its message key.
  console.error(`provider failed: ${err instanceof AppError ? t('en', err.key, err.params) : err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
