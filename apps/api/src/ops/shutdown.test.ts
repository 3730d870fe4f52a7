import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { SETTLING_TYPES } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO } from '../../test/helpers';
import { apiClient, scratchDatabase, serve, tmpDir } from '../../test/ops/spawn';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { loadConfig } from '../config';
import { firstStart } from '../startup';
import { createMailer } from '../plugins/mail';
import { addDays, platformDate, zonedInstant } from '../modules/payments/time';
import { checkInvariants } from '../modules/payments/settlement/invariants';

/**
 * Graceful shutdown of the real server (issue 27): SIGTERM during a burst of refunds. The requests
 * in flight are answered, /readyz is 503 while draining, the process exits 0; after a restart on
 * the same data every refund that was answered "refunded" is there once and none other is.
 */
describe.each(DB_KINDS)('graceful shutdown (%s)', (kind) => {
  it('SIGTERM during a burst of refunds: in-flight ones answered, the rest refused unread, readyz 503 while draining, exit 0, the data holds exactly the answered refunds', async () => {
    const dataDir = tmpDir('portal-shutdown-');
    const db = kind === 'postgres' ? await scratchDatabase('ops_shutdown') : null;
    const env = { SHUTDOWN_DELAY_MS: '300', SEED_DAYS: '0', SHUTDOWN_GRACE_MS: '15000', ...(db ? { DATABASE_URL: db.url } : {}) };
    try {
      const s = await serve(dataDir, env);
      const api = apiClient(s);
      await api.login(DEMO.users.demo, DEMO.password);
      const list = await api.call('GET', '/api/txn/list?page=0&size=50');
      const row = (list.body.data.content as { id: number; gwTranType: string; gwResponse: string; returnAmount: string; gwAmount: string; gwCurrency: string; paymentSchema: string }[]).find(
        (r) => r.gwTranType === 'PURC' && r.gwResponse === '00' && Number(r.returnAmount) === 0 && Number(r.gwAmount) >= 1,
      );
      expect(row, 'a refundable purchase in the seed').toBeTruthy();
      const detail = async () => (await api.call('GET', `/api/txn/${row!.id}`)).body.data;
      const gwId = (await detail()).gwGTransId as string;

      const N = 60;
      const keys = Array.from({ length: N }, (_, i) => `shutdown-${kind}-${i}`);
      type Answer = { status: number; body: any };
      const burst: Promise<Answer>[] = keys.map((requestKey) =>
        api.call('POST', '/api/txn/refund', { id: gwId, amount: '0.01', txnschema: row!.paymentSchema, requestKey }).catch((e: Error) => ({ status: -1, body: { err: String(e.cause ?? e) } })),
      );
      // SIGTERM while the burst is in flight.
      s.proc.kill('SIGTERM');
      const draining = await fetch(`${s.base}/readyz`).then(
        (r) => r.status,
        () => 'refused',
      );
      const answers = await Promise.all(burst);
      const code = await s.exited;
      expect(draining).toBe(503);
      expect(code, s.log().slice(-2000)).toBe(0);
      expect(s.log()).toContain('"msg":"shut down"');
      // Every request was either answered in full or refused before it was read (Fastify's 503 once
      // closing, or a connection the closed listener never accepted): a client retries those.
      for (const a of answers) {
        if (a.status === 200) expect(a.body.code).toBe(0);
        else expect([503, -1], JSON.stringify(a.body)).toContain(a.status);
      }
      // Some refunds were still in flight when the listener closed (after the 300 ms delay) and were answered.
      const lines = s
        .log()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { time: number; msg: string; route?: string; status?: number });
      const closedAt = lines.find((l) => l.msg === 'shutting down')!.time + 300;
      expect(lines.filter((l) => l.msg === 'request' && l.route === '/api/txn/refund' && l.status === 200 && l.time > closedAt).length).toBeGreaterThan(0);
      const refunded = answers.filter((a) => a.body.data?.code === 0).length;
      expect(refunded, JSON.stringify(answers.map((a) => a.body))).toBeGreaterThan(0);

      // The data as a restarted server finds it: exactly the refunds answered "refunded", once each.
      const reopened = await openDb({ databaseUrl: db?.url, dataDir });
      try {
        const { rows } = await reopened.query<{ n: number; sum: number; ret: number }>(
          `SELECT (SELECT count(*)::int FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD') AS n,
                  (SELECT coalesce(sum(amount), 0)::int FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD') AS sum,
                  (SELECT return_amount FROM txn WHERE id = $1) AS ret`,
          [row!.id],
        );
        expect(rows[0]).toEqual({ n: refunded, sum: refunded, ret: refunded });
        // No job left claimed by the process that ended.
        const stuck = await reopened.query<{ n: number }>(`SELECT count(*)::int AS n FROM job WHERE status = 'running'`);
        expect(stuck.rows[0].n).toBe(0);
      } finally {
        await reopened.close();
      }
    } finally {
      await db?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

/**
 * SIGTERM while an export is being written and while the settlement run is in its transaction;
 * then the real server restarts on the same database and DATA_DIR. PostgreSQL only: the test holds
 * table and row locks from a connection of its own to stop each job at a known point (PGlite is one
 * process's embedded database: nothing else can connect to it while the server runs), and the
 * refunds part above already covers both engines.
 */
describe.skipIf(!DB_KINDS.includes('postgres'))('graceful shutdown during an export and a settlement run (postgres)', () => {
  it('both are in flight at SIGTERM; after a restart the export is written once with every row and the settlement date is run once with the invariants holding', async () => {
    const dataDir = tmpDir('portal-shutdown-jobs-');
    const db = await scratchDatabase('ops_shutdown_jobs');
    const env = { SHUTDOWN_DELAY_MS: '0', SEED_DAYS: '1', SHUTDOWN_GRACE_MS: '1500', DATABASE_URL: db.url };
    const hold = new pg.Client({ connectionString: db.url });
    const holdLedger = new pg.Client({ connectionString: db.url });
    const watch = new pg.Client({ connectionString: db.url });
    try {
      // First start done here with the clock at 23:00 yesterday (platform zone): one seeded day of
      // transactions — yesterday's — that no settlement run has taken yet.
      const config = loadConfig({ ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, DATABASE_URL: db.url, SEED_DAYS: '1', SEED_DEMO: 'true' });
      const yesterday = addDays(platformDate(new Date(), config.platformTz), -1);
      {
        const seedDb = await openDb({ databaseUrl: db.url, dataDir });
        try {
          await migrate(seedDb);
          const clock = { now: () => zonedInstant(yesterday, config.platformTz, 23 * 60) };
          const mailer = createMailer({ outboxDir: path.join(dataDir, 'outbox'), from: config.mailFrom });
          expect(await firstStart({ config, db: seedDb, clock, mailer })).toBe(true);
          const { rows } = await seedDb.query<{ runs: number; open: number }>(
            `SELECT (SELECT count(*)::int FROM settlement_run) AS runs,
                    (SELECT count(*)::int FROM txn WHERE settle_date IS NULL AND gw_response = '00' AND tran_type = ANY($1::text[])) AS open`,
            [SETTLING_TYPES],
          );
          expect(rows[0].runs).toBe(0);
          expect(rows[0].open).toBeGreaterThan(500);
        } finally {
          await seedDb.close();
        }
      }
      // The settlement run, due at start, stops inside its transaction at its first write to
      // `settlement` (after it locked settlement_run and picked the day's transactions): the test
      // holds a SHARE lock on `settlement`.
      await hold.connect();
      await holdLedger.connect();
      await watch.connect();
      await hold.query('BEGIN');
      await hold.query('LOCK TABLE settlement IN SHARE MODE');

      const s = await serve(dataDir, env);
      const api = apiClient(s);
      await api.login(DEMO.users.demo, DEMO.password);
      const range = new URLSearchParams({ beginDate: `${addDays(yesterday, -1)} 00:00:00`, endDate: `${addDays(yesterday, 1)} 23:59:59` }).toString();
      const listed = await api.call('GET', `/api/txn/list?page=0&size=10&exactTotal=true&${range}`);
      const total = listed.body.data?.totalElements as number;
      expect(total).toBeGreaterThan(500);
      const waiting = (like: string) => async () =>
        (await watch.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1 AND query NOT LIKE 'LOCK TABLE%'`, [like])).rowCount;
      const poll = async <T>(what: string, f: () => Promise<T | undefined | null | false>, ms = 30_000): Promise<T> => {
        const t0 = Date.now();
        for (;;) {
          const v = await f();
          if (v) return v;
          if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}; log:\n${s.log().slice(-2000)}`);
          await new Promise((r) => setTimeout(r, 25));
        }
      };
      await poll('the settlement run waiting inside its transaction', waiting('%INSERT INTO settlement (%'));
      // The export, once claimed, stops at its first read of the ledger: a second connection asks for
      // an exclusive lock on txn, which queues behind the settlement run's transaction, and every
      // later reader queues behind that request (no deadlock: nothing waits for this connection).
      await holdLedger.query('BEGIN');
      const ledgerLocked = holdLedger.query('LOCK TABLE txn IN ACCESS EXCLUSIVE MODE').catch((e: Error) => e);
      await poll(
        'the ledger lock queued',
        async () => (await watch.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'LOCK TABLE txn%'`)).rowCount,
      );
      const queued = await api.call('GET', `/api/txn/exportBack?format=csv&${range}`);
      expect(queued.body.code, JSON.stringify(queued.body)).toBe(0);
      const exportId = queued.body.data.id as number;
      await poll('the export running', async () => (await watch.query(`SELECT 1 FROM export_file WHERE id = $1 AND status = 'running'`, [exportId])).rowCount);
      await poll('the export waiting on the ledger', waiting('%txn%'));
      const settleJob = await watch.query<{ status: string }>(`SELECT status FROM job WHERE kind = 'settlement.daily'`);
      expect(settleJob.rows[0].status).toBe('running');

      s.proc.kill('SIGTERM');
      // Both stay stopped until the process has ended: its connections end with it, and the
      // settlement run's transaction is rolled back.
      const code = await s.exited;
      await hold.query('ROLLBACK');
      // The settlement's transaction ended with the process (rolled back): the ledger lock is granted.
      expect(await ledgerLocked).not.toBeInstanceOf(Error);
      await holdLedger.query('ROLLBACK');
      expect(code, s.log().slice(-3000)).toBe(0);
      expect(s.log()).toContain('"msg":"shut down"');
      expect(s.log()).toContain('job handed back at shutdown');
      {
        const { rows } = await watch.query<{ status: string; runs: number }>(
          `SELECT (SELECT status FROM job WHERE kind = 'settlement.daily') AS status, (SELECT count(*)::int FROM settlement_run) AS runs`,
        );
        expect(rows[0]).toEqual({ status: 'queued', runs: 0 });
        // The export was handed back: queued again, the attempt not counted.
        const f = await watch.query(`SELECT status, attempts FROM export_file WHERE id = $1`, [exportId]);
        expect(f.rows[0]).toEqual({ status: 'queued', attempts: 0 });
      }

      // Restart on the same database and DATA_DIR.
      const s2 = await serve(dataDir, env);
      try {
        const done = await poll('the settlement run after the restart', async () => {
          const { rows } = await watch.query<{ status: string; result: { through: string; dates: number } | null; finished_at: Date | null }>(
            `SELECT status, result, finished_at FROM job WHERE kind = 'settlement.daily'`,
          );
          return rows[0].status === 'queued' && rows[0].result && rows[0].finished_at ? rows[0] : null;
        });
        expect(done.result).toMatchObject({ through: yesterday, dates: 1 });
        const file = await poll('the export ready', async () => {
          const { rows } = await watch.query<{ status: string; row_count: number; path: string; size_bytes: number }>(`SELECT status, row_count, path, size_bytes FROM export_file WHERE id = $1`, [
            exportId,
          ]);
          return rows[0].status === 'ready' || rows[0].status === 'failed' ? rows[0] : null;
        });
        // The export: one file, ready, with every row; nothing else left in the directory.
        expect(file.status).toBe('ready');
        expect(Number(file.row_count)).toBe(total);
        const dir = path.join(dataDir, 'files', 'exports');
        expect(fs.readdirSync(dir)).toEqual([file.path]);
        const text = fs.readFileSync(path.join(dir, file.path), 'utf8');
        expect(fs.statSync(path.join(dir, file.path)).size).toBe(Number(file.size_bytes));
        expect(text.split('\r\n').filter((l) => l !== '').length - 1).toBe(total);
        expect((await watch.query(`SELECT count(*)::int AS n FROM export_file`)).rows[0].n).toBe(1);
        // The settlement: yesterday run once (its transactions mostly settle on later dates by their
        // schedules), the transactions it settled marked with it, and the invariants hold.
        const { rows } = await watch.query<{ runs: number; counted: number; marked: number }>(
          `SELECT (SELECT count(*)::int FROM settlement_run WHERE run_date = $1) AS runs,
                  (SELECT txn_count::int FROM settlement_run WHERE run_date = $1) AS counted,
                  (SELECT count(*)::int FROM txn WHERE settle_date = $1) AS marked`,
          [yesterday],
        );
        expect(rows[0].runs).toBe(1);
        expect(rows[0].marked).toBe(rows[0].counted);
        const check = await openDb({ databaseUrl: db.url, dataDir });
        try {
          const broken = await checkInvariants(check);
          expect(Object.values(broken).flat(), JSON.stringify(broken)).toEqual([]);
        } finally {
          await check.close();
        }
      } finally {
        s2.proc.kill('SIGTERM');
        expect(await s2.exited).toBe(0);
      }
    } finally {
      await hold.end().catch(() => undefined);
      await holdLedger.end().catch(() => undefined);
      await watch.end().catch(() => undefined);
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
