/**
 * A throw-away PostgreSQL primary and a streaming replica of it (a hot standby made by
 * `pg_basebackup -R`), each on a free loopback port, in a temporary folder: the read-replica test
 * (apps/api/test/replica.test.ts), the replica bench (bench/replica.bench.ts) and a manual run of
 * other test files against a replica use it. The machine's own server on 5432 is not touched.
 *
 * Needs Debian's PostgreSQL server binaries (package postgresql-15: PG_BIN, default
 * /usr/lib/postgresql/15/bin). initdb refuses to run as root: as root the clusters belong to the
 * `postgres` OS user (runuser), otherwise to the current user. Servers run under `nice`.
 *
 * By hand: `npx tsx apps/api/test/replica/cluster.ts` starts a pair with synchronous replay
 * (every commit waits until the replica applied it), prints the two URLs and stops them on Ctrl-C:
 *   TEST_DATABASE_URL=<primary> TEST_REPLICA_URL=<replica> TEST_DB_KINDS=postgres npx vitest run …
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../loopback';

/** Debian's newest installed server binaries (/usr/lib/postgresql/<version>/bin), unless PG_BIN says. */
function installedPgBin(): string {
  try {
    const versions = fs
      .readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (fs.existsSync(path.join('/usr/lib/postgresql', v, 'bin', 'pg_basebackup'))) return path.join('/usr/lib/postgresql', v, 'bin');
  } catch {
    /* not installed */
  }
  return '/usr/lib/postgresql/15/bin';
}
export const PG_BIN = process.env.PG_BIN ?? installedPgBin();
const TOOLS = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'];

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Why the pair cannot be made here (null when it can). */
export function replicaToolsMissing(): string | null {
  const missing = TOOLS.filter((t) => !fs.existsSync(path.join(PG_BIN, t)));
  if (missing.length) return `needs the PostgreSQL server binaries in ${PG_BIN} (${missing.join(', ')} missing): apt-get install postgresql-15, or set PG_BIN`;
  if (isRoot()) {
    if (spawnSync('id', ['-u', 'postgres']).status !== 0) return "runs as root, and initdb refuses root: needs a `postgres` OS user (Debian's postgresql package makes one)";
    if (spawnSync('runuser', ['--help']).status !== 0) return 'runs as root and needs `runuser` to start the clusters as the postgres user';
  }
  return null;
}

/** Runs a PostgreSQL tool as the clusters' owner, niced. */
function run(tool: string, args: string[], opts: { quiet?: boolean } = {}): string {
  const cmd = ['nice', '-n', '10', path.join(PG_BIN, tool), ...args];
  const [file, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', ...cmd]] : [cmd[0], cmd.slice(1)];
  try {
    return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: os.tmpdir() });
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string };
    if (opts.quiet) return '';
    throw new Error(`${tool} ${args.join(' ')} failed: ${err.stderr || err.stdout || err.message}`);
  }
}

async function sql<T = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

export interface ReplicaPair {
  dir: string;
  primaryUrl: string;
  replicaUrl: string;
  /** Stops replay on the replica (WAL still arrives; nothing new becomes visible there). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /**
   * On: every commit on the primary waits until the replica has applied it (synchronous_commit =
   * remote_apply), so a read on the replica right after sees it. Off: asynchronous streaming.
   */
  setSyncApply(on: boolean): Promise<void>;
  /** Resolves once the replica has replayed everything the primary had written when called. */
  waitForReplay(timeoutMs?: number): Promise<void>;
  /** The replica's distance behind the primary now: WAL bytes not yet replayed, and replay_lag. */
  lag(): Promise<{ bytes: number; ms: number | null }>;
  stop(): Promise<void>;
}

const running = new Set<string>();
process.once('exit', () => {
  // A test that died half-way leaves no server behind.
  for (const d of running) {
    for (const c of ['replica', 'primary']) run('pg_ctl', ['-D', path.join(d, c), '-m', 'immediate', 'stop'], { quiet: true });
    fs.rmSync(d, { recursive: true, force: true });
  }
});

/** Makes, starts and returns the pair (about 5–10 s on a small machine). */
export async function startReplicaPair(opts: { syncApply?: boolean } = {}): Promise<ReplicaPair> {
  const why = replicaToolsMissing();
  if (why) throw new Error(why);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-replica-'));
  if (isRoot()) execFileSync('chown', ['postgres:', dir]);
  fs.chmodSync(dir, 0o700);
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const [pPort, rPort] = [await freePort(), await freePort()];
  running.add(dir);

  run('initdb', ['-D', primaryDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const common = [
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    'shared_buffers = 16MB',
    'max_connections = 80',
    'fsync = off',
    'full_page_writes = off',
    'wal_level = replica',
    'max_wal_senders = 4',
    'wal_keep_size = 256MB',
    'hot_standby = on',
    'hot_standby_feedback = on',
    'wal_receiver_status_interval = 1s',
    "log_min_messages = 'warning'",
  ];
  fs.appendFileSync(path.join(primaryDir, 'postgresql.conf'), ['', ...common, `port = ${pPort}`, ''].join('\n'));
  fs.appendFileSync(path.join(primaryDir, 'pg_hba.conf'), '\nhost replication postgres 127.0.0.1/32 trust\n');
  run('pg_ctl', ['-D', primaryDir, '-l', path.join(dir, 'primary.log'), '-w', '-t', '60', 'start']);

  const primaryUrl = `postgres://postgres@127.0.0.1:${pPort}/postgres`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${rPort}/postgres`;
  // -R writes standby.signal and primary_conninfo: the copy starts as a hot standby streaming from the primary.
  run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(pPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
  fs.appendFileSync(path.join(replicaDir, 'postgresql.conf'), `\nport = ${rPort}\n`);
  fs.appendFileSync(path.join(replicaDir, 'postgresql.auto.conf'), "\nprimary_conninfo = 'host=127.0.0.1 port=" + pPort + " user=postgres application_name=portal_replica'\n");
  run('pg_ctl', ['-D', replicaDir, '-l', path.join(dir, 'replica.log'), '-w', '-t', '60', 'start']);

  const pair: ReplicaPair = {
    dir,
    primaryUrl,
    replicaUrl,
    async pauseReplay() {
      await sql(replicaUrl, 'SELECT pg_wal_replay_pause()');
    },
    async resumeReplay() {
      await sql(replicaUrl, 'SELECT pg_wal_replay_resume()');
    },
    async setSyncApply(on) {
      await sql(primaryUrl, `ALTER SYSTEM SET synchronous_standby_names = '${on ? 'portal_replica' : ''}'`);
      await sql(primaryUrl, `ALTER SYSTEM SET synchronous_commit = '${on ? 'remote_apply' : 'on'}'`);
      await sql(primaryUrl, 'SELECT pg_reload_conf()');
    },
    async waitForReplay(timeoutMs = 30_000) {
      const [{ lsn }] = await sql<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS lsn');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [{ ok }] = await sql<{ ok: boolean }>(replicaUrl, 'SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS ok', [lsn]);
        if (ok) return;
        if (Date.now() > deadline) throw new Error(`replica did not replay up to ${lsn} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async lag() {
      const rows = await sql<{ bytes: string | null; ms: number | null }>(
        primaryUrl,
        `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::text AS bytes,
                (extract(epoch FROM replay_lag) * 1000)::float8 AS ms
           FROM pg_stat_replication WHERE application_name = 'portal_replica'`,
      );
      if (!rows.length) throw new Error('the replica is not connected to the primary');
      return { bytes: Number(rows[0].bytes ?? 0), ms: rows[0].ms };
    },
    async stop() {
      run('pg_ctl', ['-D', replicaDir, '-m', 'immediate', 'stop'], { quiet: true });
      run('pg_ctl', ['-D', primaryDir, '-m', 'immediate', 'stop'], { quiet: true });
      running.delete(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };

  // Streaming is up once the primary lists the replica and the replica is in recovery.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const st = await sql<{ state: string }>(primaryUrl, "SELECT state FROM pg_stat_replication WHERE application_name = 'portal_replica'");
    if (st[0]?.state === 'streaming') break;
    if (Date.now() > deadline) {
      await pair.stop();
      throw new Error('the replica did not start streaming within 30 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (opts.syncApply) await pair.setSyncApply(true);
  return pair;
}

// Run by hand: start a pair and keep it until Ctrl-C.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const pair = await startReplicaPair({ syncApply: true });
  console.log(`primary: ${pair.primaryUrl}\nreplica: ${pair.replicaUrl}\n(synchronous replay on; Ctrl-C stops both and removes ${pair.dir})`);
  const stop = async () => {
    await pair.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  setInterval(() => undefined, 1 << 30);
}
