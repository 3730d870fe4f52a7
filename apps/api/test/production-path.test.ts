import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import PostalMime from 'postal-mime';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_POSTGRES } from './helpers';
import { freePort, withDatabase } from './loopback';
import { startSmtpReceiver } from './smtp-receiver';
import { startFakeGateway, type FakeGateway } from './fake-gateway';
import { signedHeaders } from '../src/modules/gateway/gateway.fixtures';
import { totpFor } from '../src/modules/user/totp';
import { BANK, FEE, merchantBody } from '../src/modules/ops/ops.fixtures';
import { addDays, platformDate } from '../src/modules/payments/time';

const sh = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');
const TZ = 'Asia/Shanghai';

/**
 * The README's "Start as a provider" section, its shell commands in order: every line of its
 * ```sh blocks, continuation lines joined, comments dropped.
 */
export function readmeProviderCommands(readme: string): string[] {
  const start = readme.indexOf('## Start as a provider');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((b) =>
    b
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((l) => l.replace(/\s+#\s.*$/, '').trim())
      .filter((l) => l && !l.startsWith('#')),
  );
}

/** The variables an `export A=… B=…` line sets. */
export const exportedNames = (line: string) => [...line.matchAll(/\s([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]);

/** What production needs (README's table): the test fails when the README's export line leaves one out. */
const REQUIRED = ['NODE_ENV', 'PUBLIC_URL', 'DATABASE_URL', 'SMTP_URL', 'MAIL_FROM', 'PROVIDER_KEY_ENCRYPTION_KEY', 'ACQUIRER', 'ACQUIRER_URL', 'ACQUIRER_SIGNING_KEY'];

/** The README's sample values the test puts its own in place of (the commands stay as written). */
const SAMPLE_MERCHANT = '100000000000001';
const SAMPLE_DATE = '2026-03-02';

/**
 * Issue 46, "the proof the docs work": the README's production path, followed as written, from a
 * clean clone on an empty PostgreSQL database — the database and its owner as step 1 makes them
 * (a role that is no superuser), the settings of step 2 (the test's values for the README's
 * names; the required ones must all be there), `npm run setup:production` and `npm run serve`
 * in production mode, the first operator from `npm run ops -- add-operator`, a merchant from the
 * back office's API, the gateway's connection and key from `npm run provider`, a signed batch
 * through the provider API, `npm run settle`, and the merchant's main user signing in (codes by
 * SMTP) and seeing its transactions settled and the day's settlement figures, to the minor unit.
 *
 * The clean clone is `git clone` of this checkout's HEAD (committed work only) into a temporary
 * folder. The install's `npm ci` is not run for real there — 1.1 GB on every run — but as
 * `npm ci --dry-run --offline` of the exact command of `setup:production`, under NODE_ENV=production:
 * it must install vite and tsx (without `--include=dev` it does not: checked too). The clone then
 * gets this checkout's node_modules by symbolic links (its own workspaces linked to its own
 * folders), and the rest of `setup:production` (build, migrate) runs as written.
 * PostgreSQL only (TEST_DATABASE_URL, as a superuser to make the role); skipped with the reason without it.
 */
describe('the README production path, from a clean clone on an empty PostgreSQL database', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch((e) => console.error('cleanup:', e));
  });

  it('README commands: database → setup:production → serve → operator → merchant → connection → signed batch → settle → the merchant sees it', async ({ skip }) => {
    skip(!!NO_POSTGRES, NO_POSTGRES ?? undefined);
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const commands = readmeProviderCommands(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    const ran = new Set<string>();
    // Each step's time, printed at the end (docs/testing.md quotes them).
    const times: [string, number][] = [];
    let mark = Date.now();
    const lap = (what: string) => {
      times.push([what, (Date.now() - mark) / 1000]);
      mark = Date.now();
    };
    const take = (prefix: string) => {
      const found = commands.filter((c) => c.startsWith(prefix));
      expect(found, `README "Start as a provider" has one command starting "${prefix}"`).toHaveLength(1);
      ran.add(found[0]);
      return found[0];
    };

    // — a clean clone of HEAD
    let head = '';
    try {
      head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      skip(true, 'not a git checkout: the clean clone is made with git');
    }
    if (execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim())
      console.warn('production path: uncommitted changes are not in the clone (it is HEAD)');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'production-path-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    await sh('git', ['clone', '--quiet', '--no-checkout', ROOT, dir]);
    await sh('git', ['-C', dir, 'checkout', '--quiet', '--detach', head]);
    expect(fs.existsSync(path.join(dir, 'node_modules')) || fs.existsSync(path.join(dir, 'apps/web/dist')), 'nothing built in a clean clone').toBe(false);
    lap('clone');

    // — 1. the database: the README's statements, with this run's role, database and password
    const name = `portal_pp_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    const psql = take('psql ');
    const statements = [...psql.matchAll(/-c "([^"]+)"/g)].map((m) => m[1].replace(/\bportal\b/g, name).replace(/'change-me'/g, `'${password}'`));
    expect(statements).toEqual([`CREATE ROLE ${name} LOGIN PASSWORD '${password}'`, `CREATE DATABASE ${name} OWNER ${name}`]);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    for (const s of statements) await admin.query(s);
    await admin.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS ${name}`);
      await c.end();
    });
    const u = new URL(withDatabase(adminUrl, name));
    u.username = name;
    u.password = password;
    const databaseUrl = u.toString();
    lap('database');

    // — 2. the settings: the README's names, this run's values
    const smtp = await startSmtpReceiver();
    cleanups.push(() => smtp.close());
    const gw: FakeGateway = await startFakeGateway();
    cleanups.push(() => gw.close());
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const mailFrom = 'Portal Test <no-reply@portal-test.example>';
    const values: Record<string, string> = {
      NODE_ENV: 'production',
      PUBLIC_URL: base,
      DATABASE_URL: databaseUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: mailFrom,
      PROVIDER_KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      ACQUIRER: 'http',
      ACQUIRER_URL: gw.url,
      ACQUIRER_SIGNING_KEY: gw.signingKey,
      ACQUIRER_KEY_ID: gw.keyId,
    };
    const names = exportedNames(take('export '));
    expect(
      names.filter((n) => !REQUIRED.includes(n) && !(n in values)),
      'a setting of the README the test does not know',
    ).toEqual([]);
    expect(
      REQUIRED.filter((n) => !names.includes(n)),
      "a required setting missing from the README's export line",
    ).toEqual([]);
    const env: NodeJS.ProcessEnv = { PORT: String(port), DATA_DIR: path.join(dir, 'data'), PLATFORM_TZ: TZ, LOG_LEVEL: 'warn' };
    for (const [k, v] of Object.entries(process.env)) if (!/^(VITEST|npm_|TEST_|E2E_|NODE_ENV$|DATABASE_|PUBLIC_URL$|SMTP_URL$|ACQUIRER|PROVIDER_|MAIL_FROM$)/.test(k)) env[k] ??= v;
    for (const n of names) env[n] = values[n];
    const run = async (cmd: string, timeout = 120_000) => {
      try {
        const out = await sh('sh', ['-c', cmd], { cwd: dir, env, timeout, maxBuffer: 32 * 1024 * 1024 });
        return out.stdout + out.stderr;
      } catch (e) {
        const x = e as { stdout?: string; stderr?: string; message: string };
        throw new Error(`${cmd} failed: ${x.message}\n${x.stdout ?? ''}\n${x.stderr ?? ''}`.slice(-4000));
      }
    };

    // — 3a. npm run setup:production: its install installs the build's and the server's dev tools under NODE_ENV=production
    expect(take('npm run setup:production')).toBe('npm run setup:production');
    const script: string = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).scripts['setup:production'];
    const [install, ...rest] = script.split('&&').map((s) => s.trim());
    expect(install).toMatch(/^npm ci\b/);
    const added = (out: string) => new Set([...out.matchAll(/^add (\S+) /gm)].map((m) => m[1]));
    const [withDev, plain] = (await Promise.all([`${install} --dry-run --offline`, `${install.replace(/\s--include=dev\b/, '')} --dry-run --offline`].map((c) => run(c)))).map(added);
    expect(
      ['vite', 'tsx'].filter((p) => !withDev.has(p)),
      'the install leaves out the build tools',
    ).toEqual([]);
    expect(plain.has('vite'), 'without --include=dev, NODE_ENV=production leaves vite out (the check can fail)').toBe(false);
    linkNodeModules(dir);
    lap('install (npm ci --dry-run ×2), links');
    // — 3b. the rest as written: build, migrate
    const setup = await run(rest.join(' && '), 150_000);
    expect(setup).toMatch(/Migrated PostgreSQL .*: \d+ migration\(s\) applied/);
    expect(fs.existsSync(path.join(dir, 'apps/web/dist/index.html'))).toBe(true);
    lap('build, migrate');

    // — 3c. npm run serve, in production mode
    const server = startServer(take('npm run serve'), dir, env);
    cleanups.push(() => server.stop());
    await server.ready(base);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"');
    expect((await fetch(`${base}/dev/mailbox`)).status, 'no development mailbox in production').toBe(404);
    lap('serve until ready');

    // — 4. the first operator: activation (authenticator) and sign-in (a recovery code: the activation used this 30 s step's code)
    const opOut = await run(take('npm run ops -- add-operator'));
    const link = new URL(/https?:\/\/\S+token=[A-Za-z0-9_-]+/.exec(opOut)?.[0] ?? 'http://x/');
    expect(link.origin, opOut).toBe(base);
    const token = link.searchParams.get('token')!;
    const info = await json(`${base}/api/ops/auth/activation?token=${token}`);
    expect(info.code, info.msg).toBe(0);
    const opPassword = 'Ops-Passw0rd!long';
    const totpCode = totpFor(info.data.totpSecret, 'x').generate({ timestamp: Date.now() });
    const activated = await json(`${base}/api/ops/auth/activate`, { token, newPassword: opPassword, confirmPassword: opPassword, totpCode });
    expect(activated.code, activated.msg).toBe(0);
    const opLogin = await json(`${base}/api/ops/auth/login`, { username: info.data.username, password: opPassword, verifyCode: activated.data.recoveryCodes[0] });
    expect(opLogin.code, opLogin.msg).toBe(0);
    const ops = { 'x-token': opLogin.data.token };
    lap('operator');

    // — 5. Merchants → New merchant: T+1, daily transfer, no reserve
    const fee = { ...FEE, cycleDays: 1, reserveBp: 0, reserveHoldDays: 0, transferPeriod: 'D' };
    const mainUser = { username: 'first-main', email: 'main@first-merchant.example' };
    const created = await json(`${base}/api/ops/merchants`, merchantBody({ name: 'First Merchant', channels: ['CARD'], currencies: ['HKD'], fees: [fee], bankAccount: BANK, mainUser }), ops);
    expect(created.code, created.msg).toBe(0);
    const merId: string = created.data.merId;
    lap('merchant');

    // — 6. the gateway: connection and key (the README's commands, the merchant id the back office gave)
    const connOut = await run(take('npm run provider -- connection add').replaceAll(SAMPLE_MERCHANT, merId));
    expect(connOut).toContain(`reports for ${merId}`);
    const keyOut = await run(take('npm run provider -- key add'));
    const key = { keyId: /Key id:\s+(\S+)/.exec(keyOut)![1], secret: /Secret:\s+(\S+)/.exec(keyOut)![1] };
    lap('connection, key');

    // a signed batch of the day before yesterday (D − 2): two purchases and a refund of one
    const today = platformDate(new Date(), TZ);
    const day = addDays(today, -2);
    const row = (o: Record<string, string>) => ({
      clientid: merId,
      gwTranType: 'PURC',
      gwResponse: '00',
      gwCurrency: 'HKD',
      paymentSchema: 'CARD',
      paymentBrand: 'visa',
      cardNumber: '4111111111111111',
      ...o,
    });
    const batch = {
      transactions: [
        row({ gwGTransId: 'PP-1', orderNum: 'PP-ORD-1', gwAmount: '200.00', currentTime: `${day} 10:00:00` }),
        row({ gwGTransId: 'PP-2', orderNum: 'PP-ORD-2', gwAmount: '50.50', currentTime: `${day} 11:00:00` }),
        row({ gwGTransId: 'PP-3', orderNum: 'PP-REF-1', originorderno: 'PP-ORD-1', gwTranType: 'REFD', gwAmount: '30.00', currentTime: `${day} 15:00:00` }),
      ],
    };
    const body = JSON.stringify(batch);
    const fed = await fetch(`${base}/provider/v1/transactions`, { method: 'POST', headers: signedHeaders(key, 'POST', '/provider/v1/transactions', body, Date.now()), body }).then((r) => r.json());
    expect(fed.code, JSON.stringify(fed)).toBe(0);
    expect(fed.data, JSON.stringify(fed.data)).toMatchObject({ accepted: 3, duplicate: 0, rejected: 0 });
    lap('signed batch');

    // — 7. settlement: the T+1 run for yesterday settles the day before (runs go forward: a date
    //   before it not run yet is run first — here D − 2, with nothing due on it)
    const settleOut = await run(take('npm run settle').replaceAll(SAMPLE_DATE, addDays(today, -1)));
    // (the server's daily job, at 00:30 platform time, may have run it first if the test spans that minute)
    expect(settleOut).toMatch(/Settled \d date\(s\) .*: 3 transactions, 1 settlement rows, 1 transfers|was already settled/);
    lap('settle');

    // — the merchant's main user: activation from the e-mail, sign-in with the e-mailed code
    const activation = await mailTo(smtp.received, mainUser.email, /\/user\/active\?token=([A-Za-z0-9_-]+)/);
    expect(activation.from).toContain('no-reply@portal-test.example');
    const merchantPassword = 'First-Main-1';
    const act = await json(`${base}/api/user/active`, { token: activation.match[1], newPassword: merchantPassword, confirmPassword: merchantPassword });
    expect(act.code, act.msg).toBe(0);
    const sent = await json(`${base}/api/user/getEmailCode`, { username: mainUser.username });
    expect(sent.code, sent.msg).toBe(0);
    const code = await mailTo(smtp.received, mainUser.email, /\b(\d{6})\b/, activation.index + 1);
    const signed = await json(`${base}/api/user/login`, { username: mainUser.username, password: merchantPassword, verifyCode: code.match[1] });
    expect(signed.code, signed.msg).toBe(0);
    const me = { 'x-token': signed.data.token };

    // it sees the transactions settled, and the settlement figures to the minor unit:
    // 200.00 + 50.50 − 30.00 − fees (3 % + 2.00 on each purchase, none on the refund: 8.00 and 3.52) = 208.98,
    // transferred (daily, threshold 100.00) less the 5.00 transfer fee: 203.98
    const list = await json(`${base}/api/txn/list?page=0&size=10&beginDate=${day}%2000:00:00&endDate=${day}%2023:59:59`, undefined, me);
    expect(list.code, list.msg).toBe(0);
    expect(list.data.content.map((t: { mrequest: { orderno: string }; settleFlag: string }) => t.mrequest.orderno).sort()).toEqual(['PP-ORD-1', 'PP-ORD-2', 'PP-REF-1']);
    expect(
      list.data.content.filter((t: { settleFlag: string }) => t.settleFlag === 'N'),
      'every transaction settled',
    ).toEqual([]);
    const settled = addDays(today, -1);
    const transfer = await json(`${base}/api/report/transfer/list?page=0&size=10&beginDate=${settled}&endDate=${settled}`, undefined, me);
    expect(transfer.code, transfer.msg).toBe(0);
    expect(transfer.data.content).toHaveLength(1);
    expect(transfer.data.content[0]).toMatchObject({
      txnSetDate: settled,
      clientid: merId,
      merTxnSet: 'HKD',
      reconSetAmount: '208.98',
      servAmount: '0.00',
      realTransAmountBeforeTransFee: '208.98',
      tranFee: '5.00',
      realTransAmount: '203.98',
    });

    lap('the merchant signs in and sees it');
    console.log(`production path, seconds per step:\n${times.map(([w, t]) => `  ${t.toFixed(1).padStart(6)}  ${w}`).join('\n')}`);

    // every command of the README's section was run
    expect(commands.filter((c) => !ran.has(c))).toEqual([]);
  }, 300_000);
});

/**
 * node_modules of this checkout, by links: each package linked, the clone's own workspaces
 * (@portal/*) linked to its folders; of the dot-entries only `.bin` — the build's caches
 * (`.vite`, `.vite-temp`) stay the clone's own.
 */
function linkNodeModules(dir: string) {
  const from = path.join(ROOT, 'node_modules');
  const to = path.join(dir, 'node_modules');
  fs.mkdirSync(to);
  for (const entry of fs.readdirSync(from)) {
    if (entry === '@portal' || (entry.startsWith('.') && entry !== '.bin')) continue;
    fs.symlinkSync(path.join(from, entry), path.join(to, entry));
  }
  fs.mkdirSync(path.join(to, '@portal'));
  for (const ws of fs.readdirSync(path.join(from, '@portal'))) fs.symlinkSync(fs.readlinkSync(path.join(from, '@portal', ws)), path.join(to, '@portal', ws));
}

/** `npm run serve` in its own process group (npm → sh → node), stopped by its group's id. */
function startServer(cmd: string, cwd: string, env: NodeJS.ProcessEnv) {
  const logFile = path.join(cwd, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const proc: ChildProcess = spawn('sh', ['-c', cmd], { cwd, env, stdio: ['ignore', out, out], detached: true });
  let exited = false;
  proc.once('exit', () => (exited = true));
  const log = () => fs.readFileSync(logFile, 'utf8').slice(-4000);
  return {
    async ready(base: string) {
      const t0 = Date.now();
      while (Date.now() - t0 < 90_000) {
        if (exited) throw new Error(`the server exited; log:\n${log()}`);
        const ok = await fetch(`${base}/readyz`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) return;
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`the server is not ready after 90 s; log:\n${log()}`);
    },
    async stop() {
      if (exited || !proc.pid) return;
      process.kill(-proc.pid, 'SIGTERM');
      const t0 = Date.now();
      while (!exited && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 100));
      if (!exited) process.kill(-proc.pid, 'SIGKILL');
    },
  };
}

/** A JSON call: POST with a JSON body when `body` is given, GET otherwise. */
async function json(url: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return r.json();
}

/** The first mail (from `from` on) to `to` whose text matches, waiting for it (mails go out after the answer). */
async function mailTo(received: { to: string[]; raw: Buffer }[], to: string, re: RegExp, from = 0) {
  const t0 = Date.now();
  while (Date.now() - t0 < 30_000) {
    for (let i = from; i < received.length; i++) {
      if (!received[i].to.includes(to)) continue;
      const mail = await PostalMime.parse(received[i].raw);
      const match = re.exec(`${mail.text ?? ''}\n${mail.html ?? ''}`);
      if (match) return { index: i, match, from: `${mail.from?.name ?? ''} <${mail.from?.address ?? ''}>` };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} matching ${re}`);
}
