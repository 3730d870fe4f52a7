/**
 * The read replica (DATABASE_REPLICA_URL, decision 024) on a real streaming replica: a primary and
 * a hot standby made by `pg_basebackup -R`, each a throw-away cluster on a loopback port
 * (test/replica/cluster.ts). Replay is paused on the replica to make "read from the replica"
 * visible: what the primary wrote since is missing from the lists, while the reads that must see
 * a write (a detail, the file list, the writing session's own lists) show it at once.
 * Skipped, with the reason, where the PostgreSQL server binaries are not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, withReplica, type Db } from '../src/db/db';
import { migrate } from '../src/db/migrate';
import { drainExports } from '../src/modules/export/export.service';
import { addTxn, auth, loginWithStepUp } from '../src/modules/txn/txn.fixtures';
import { READ_PRIMARY_COOKIE } from '../src/plugins/read-scope';
import { createTestApp, form, type TestCtx } from './helpers';
import { replicaToolsMissing, startReplicaPair, type ReplicaPair } from './replica/cluster';

const WHY = replicaToolsMissing();
const RANGE = { beginDate: '2026-11-01 00:00:00', endDate: '2026-11-30 23:59:59' };

describe('read replica: lists, reports and exports read a streaming replica; what must see a write reads the primary', () => {
  let pair: ReplicaPair;
  let ctx: TestCtx;
  let db: Db;
  /** A session that refunds (and so reads the primary for a while after). */
  let writer: string;
  /** Another session of the same user that only reads. */
  let reader: string;

  beforeAll(async () => {
    if (WHY) return;
    pair = await startReplicaPair();
    const primary = await openPostgres(pair.primaryUrl, { max: 10 });
    await migrate(primary);
    const replica = await openPostgres(pair.replicaUrl, { max: 10 });
    db = withReplica(primary, replica, { stickyMs: 120_000 });
    ctx = await createTestApp({
      kind: 'postgres',
      db: Object.assign(db, { drop: () => db.close() }),
      config: { replicaUrl: pair.replicaUrl, replicaStickyMs: 120_000 },
    });
    writer = await loginWithStepUp(ctx);
    reader = (await ctx.login()).token;
    await pair.waitForReplay();
  }, 180_000);
  afterAll(async () => {
    await ctx?.close();
    await pair?.stop();
  }, 60_000);

  const get = (token: string, url: string, query: Record<string, string> = {}) => ctx.call({ method: 'GET', url, headers: auth(token), query });
  const orders = async (token: string, query: Record<string, string>) =>
    ((await get(token, '/api/txn/list', query)).body.data.content as { gwOrderNum?: string; orderNum?: string; gwTranType: string }[]).map((r) => r.gwTranType);

  it('a transaction written while the replica does not replay is missing from the list, present in its detail; listed once replayed', async ({ skip }) => {
    skip(!!WHY, WHY ?? undefined);
    expect(db.read.target()).toBe('replica');
    await pair.pauseReplay();
    try {
      const t = await addTxn(ctx, { orderNo: 'REPL-1' });
      expect(await orders(reader, { orderNum: 'REPL-1' })).toEqual([]);
      expect((await get(reader, '/api/txn/totals', { orderNum: 'REPL-1' })).body.data).toEqual([]);
      const detail = await get(reader, `/api/txn/${t.id}`);
      expect(detail.body.code).toBe(0);
      expect(detail.body.data.mrequest.orderNum).toBe('REPL-1');
    } finally {
      await pair.resumeReplay();
    }
    await pair.waitForReplay();
    expect(await orders(reader, { orderNum: 'REPL-1' })).toEqual(['PURC']);
  });

  it('refund: the detail shows it at once; the refunding session lists it at once, another session once the replica replayed it', async ({ skip }) => {
    skip(!!WHY, WHY ?? undefined);
    const t = await addTxn(ctx, { orderNo: 'REPL-2', amount: 10000 });
    await pair.waitForReplay();
    await pair.pauseReplay();
    try {
      const body = form({ id: t.gwTransId, amount: '25.50', txnschema: 'WX' });
      const r = await ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { ...auth(writer), ...body.headers }, payload: body.payload });
      expect(r.body.data).toMatchObject({ code: 0, returnAmount: '25.50' });
      // The answer to a write carries the read-the-primary cookie for the sticky window.
      const cookie = String(r.headers['set-cookie'] ?? '');
      expect(cookie).toMatch(new RegExp(`^${READ_PRIMARY_COOKIE}=1; Max-Age=120; Path=/api; HttpOnly; SameSite=Strict`));
      const detail = (await get(writer, `/api/txn/${t.id}`)).body.data;
      expect(detail.refundable).toBe('74.50');
      expect(detail.associated).toHaveLength(2);
      // The writer's lists read the primary (sticky window after its write) …
      expect(await orders(writer, { originOrderNum: 'REPL-2' })).toEqual(['REFD']);
      // … another session's read the replica, which has not replayed the refund.
      expect(await orders(reader, { originOrderNum: 'REPL-2' })).toEqual([]);
      // … unless the caller brings the cookie: another API process served its write.
      const withCookie = await ctx.call({ method: 'GET', url: '/api/txn/list', headers: { ...auth(reader), cookie: cookie.split(';')[0] }, query: { originOrderNum: 'REPL-2' } });
      expect(withCookie.body.data.content.map((x: { gwTranType: string }) => x.gwTranType)).toEqual(['REFD']);
      // A read answers without it.
      expect((await get(reader, '/api/txn/list', { originOrderNum: 'REPL-2' })).headers['set-cookie']).toBeUndefined();
      expect((await get(reader, `/api/txn/${t.id}`)).body.data.refundable).toBe('74.50');
    } finally {
      await pair.resumeReplay();
    }
    await pair.waitForReplay();
    expect(await orders(reader, { originOrderNum: 'REPL-2' })).toEqual(['REFD']);
  });

  it('export: the file list shows it at once, and the queued file holds the transaction written just before (replica behind: read from the primary)', async ({ skip }) => {
    skip(!!WHY, WHY ?? undefined);
    await pair.pauseReplay();
    try {
      await addTxn(ctx, { orderNo: 'REPL-3', amount: 777 });
      const q = await get(reader, '/api/txn/exportBack', { ...RANGE, orderNum: 'REPL-3', format: 'csv' });
      expect(q.body.code).toBe(0);
      const listed = (await get(reader, '/api/report/file/list')).body.data.content;
      expect(listed[0]).toMatchObject({ id: q.body.data.id, status: 'queued' });
      // The job waits (up to 2 s) for the replica to replay what was written before it started;
      // replay is paused, so it reads the primary.
      await drainExports(ctx.deps);
      const ready = (await get(reader, '/api/report/file/list')).body.data.content[0];
      expect(ready).toMatchObject({ id: q.body.data.id, status: 'ready', rowCount: 1 });
      const file = await ctx.app.inject({ method: 'GET', url: `/api/report/file/download/${ready.id}`, headers: auth(reader) });
      expect(file.body).toContain('REPL-3');
      expect(file.body).toContain('7.77');
    } finally {
      await pair.resumeReplay();
    }
  });

  it("caughtUp: the replica once it replayed the primary's writes, the primary while it lags", async ({ skip }) => {
    skip(!!WHY, WHY ?? undefined);
    await pair.waitForReplay();
    expect((await db.read.caughtUp(5000)).target()).toBe('replica');
    await pair.pauseReplay();
    try {
      await addTxn(ctx, { orderNo: 'REPL-4' });
      expect((await db.read.caughtUp(100)).target()).toBe('primary');
    } finally {
      await pair.resumeReplay();
    }
    expect((await db.read.caughtUp(10_000)).target()).toBe('replica');
  });

  it('outside any request a read goes to the replica; a replica that cannot be reached is stood in for by the primary', async ({ skip }) => {
    skip(!!WHY, WHY ?? undefined);
    const { rows } = await db.read.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
    expect(rows[0].r).toBe(true);
    const primary = await openPostgres(pair.primaryUrl, { max: 1 });
    const gone = withReplica(primary, await openPostgres('postgres://postgres@127.0.0.1:9/postgres', { max: 1 }));
    try {
      expect((await gone.read.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r')).rows[0].r).toBe(false);
    } finally {
      await gone.close();
    }
  });
});
