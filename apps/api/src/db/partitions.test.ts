/**
 * The ledgers' monthly partitions (issue 16, target 3; decision 028), on both engines: months
 * created ahead and on demand, queries pruned to the months they touch (EXPLAIN), the global keys
 * kept by txn_key, and a month detached for archive with the references to it intact.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, isConcurrent, type TestCtx } from '../../test/helpers';
import { addTxn, auth, loginWithStepUp } from '../modules/txn/txn.fixtures';
import { form } from '../../test/helpers';
import { txnWhere, listTxn } from '../modules/txn/txn.repo';
import { searchIds } from '../modules/search/search.repo';
import { archiveMonth, detachMonth, ensureAhead, ensureMonths, listMonths, partitionName } from './partitions';
import { setUpPartitionJobs, PARTITIONS_JOB } from '../jobs/partitions.job';
import { generateDemoData } from '../seed/demo-data';

const months = async (ctx: TestCtx, table: 'txn' | 'audit_log' = 'txn') => (await listMonths(ctx.db, table)).map((m) => m.name);

/** The partitions an EXPLAIN of `sql` reads (scans of txn_pYYYYMM), in plan order. */
async function scanned(ctx: TestCtx, sql: string, params: unknown[]): Promise<string[]> {
  const { rows } = await ctx.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
  const found = rows.flatMap((r) => [...r['QUERY PLAN'].matchAll(/\b(txn_p\d{6})\b/g)].map((m) => m[1]));
  return [...new Set(found)].sort();
}

describe.each(DB_KINDS)('ledger partitions (%s)', (kind) => {
  let ctx: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
  });
  afterAll(() => ctx?.close());

  it('txn and audit_log are partitioned by month; the migration made this month and the next three', async () => {
    const { rows } = await ctx.db.query<{ relname: string; strategy: string }>(
      `SELECT c.relname, p.partstrat AS strategy FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
        WHERE c.oid IN ('txn'::regclass, 'audit_log'::regclass) ORDER BY 1`,
    );
    expect(rows).toEqual([
      { relname: 'audit_log', strategy: 'r' },
      { relname: 'txn', strategy: 'r' },
    ]);
    // Months of the partition zone (UTC+8): from 16:00 UTC on a month's last day it is the next one.
    const zoned = new Date(Date.now() + 8 * 3_600_000);
    for (const table of ['txn', 'audit_log'] as const) {
      const names = await months(ctx, table);
      for (let i = 0; i <= 3; i++) {
        const d = new Date(Date.UTC(zoned.getUTCFullYear(), zoned.getUTCMonth() + i, 15));
        expect(names).toContain(partitionName(table, d));
      }
    }
    // No default partition: a month can be detached CONCURRENTLY.
    const { rows: def } = await ctx.db.query(`SELECT 1 FROM pg_partitioned_table p WHERE p.partrelid = 'txn'::regclass AND p.partdefid <> 0`);
    expect(def).toEqual([]);
  });

  it('a month is that of UTC+8: bounds at 16:00 UTC of the day before', async () => {
    await ensureMonths(ctx.db, 'txn', new Date('2025-03-10T00:00:00Z'));
    const m = (await listMonths(ctx.db, 'txn')).find((p) => p.name === 'txn_p202503')!;
    expect(m.from.toISOString()).toBe('2025-02-28T16:00:00.000Z');
    expect(m.to.toISOString()).toBe('2025-03-31T16:00:00.000Z');
    // 2025-03-31T16:30Z is April 1st 00:30 in the zone: April's partition.
    expect(partitionName('txn', new Date('2025-03-31T16:30:00Z'))).toBe('txn_p202504');
    expect(partitionName('txn', new Date('2025-03-31T15:59:59Z'))).toBe('txn_p202503');
  });

  it('ingestion creates the month of a back-dated transaction, and the row lands in it', async () => {
    expect(await months(ctx)).not.toContain('txn_p202401');
    const t = await addTxn(ctx, { orderNo: 'PART-OLD-1', txnTime: new Date('2024-01-20T03:00:00Z') });
    expect(await months(ctx)).toContain('txn_p202401');
    const { rows } = await ctx.db.query<{ part: string }>(`SELECT tableoid::regclass::text AS part FROM txn WHERE id = $1`, [t.id]);
    expect(rows[0].part).toMatch(/txn_p202401$/);
    // A second one that month asks nothing more and lands beside it.
    const u = await addTxn(ctx, { orderNo: 'PART-OLD-2', txnTime: new Date('2024-01-21T03:00:00Z') });
    const { rows: r2 } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM txn_p202401 WHERE id = ANY($1::int8[])`, [[t.id, u.id]]);
    expect(r2[0].n).toBe(2);
  });

  it('the job creates months ahead of the clock, and only once', async () => {
    const handlers = await setUpPartitionJobs(ctx.deps);
    const later = new Date(Date.UTC(new Date().getUTCFullYear() + 2, 5, 10));
    ctx.clock.set(later);
    try {
      const before = (await months(ctx)).length + (await months(ctx, 'audit_log')).length;
      const first = await handlers[PARTITIONS_JOB]({ db: ctx.db, clock: ctx.clock, job: { id: 0, kind: PARTITIONS_JOB, payload: {}, attempts: 1 } } as never);
      // June … September of that year, for txn and audit_log; and (issue 47) txn's months of the
      // provider feed's window back (PROVIDER_FEED_DAYS_BACK, 400 days), into which the feed writes.
      const made = (first as { result: { made: number } }).result.made;
      expect(made).toBe((await months(ctx)).length + (await months(ctx, 'audit_log')).length - before);
      for (const mm of ['06', '07', '08', '09']) expect(await months(ctx)).toContain(`txn_p${later.getUTCFullYear()}${mm}`);
      for (let d = 0; d <= 400; d += 10) expect(await months(ctx)).toContain(partitionName('txn', new Date(+later - d * 86_400_000)));
      expect(await ensureAhead(ctx.db, later)).toBe(0);
      const again = await handlers[PARTITIONS_JOB]({ db: ctx.db, clock: ctx.clock, job: { id: 0, kind: PARTITIONS_JOB, payload: {}, attempts: 1 } } as never);
      expect((again as { result: { made: number } }).result.made).toBe(0);
    } finally {
      ctx.clock.set(new Date());
    }
  });

  it('"this month and the next three" counts months, on the 29th–31st and across the zone’s midnight too', async () => {
    const made = async (at: string) => {
      const before = new Set([...(await months(ctx)), ...(await months(ctx, 'audit_log'))]);
      const n = await ensureAhead(ctx.db, new Date(at));
      const after = [...(await months(ctx)), ...(await months(ctx, 'audit_log'))].filter((m) => !before.has(m));
      expect(after.length).toBe(n);
      return after.filter((m) => m.startsWith('txn_')).sort();
    };
    // 29 November + 3 months (no 29 February in 2031) is no 1 March: November … February.
    expect(await made('2030-11-29T04:00:00Z')).toEqual(['txn_p203011', 'txn_p203012', 'txn_p203101', 'txn_p203102']);
    // 31 August (three ahead, November, has 30 days): August … November.
    expect(await made('2034-08-31T02:00:00Z')).toEqual(['txn_p203408', 'txn_p203409', 'txn_p203410', 'txn_p203411']);
    // 31 December 20:00 UTC is 1 January in the partition zone (UTC+8): January … April.
    expect(await made('2036-12-31T20:00:00Z')).toEqual(['txn_p203701', 'txn_p203702', 'txn_p203703', 'txn_p203704']);
  });

  it('a list over six weeks reads only the months it touches (EXPLAIN), by the merchant index', async () => {
    await ensureMonths(ctx.db, 'txn', new Date('2025-06-01T00:00:00Z'), new Date('2025-12-31T00:00:00Z'));
    await addTxn(ctx, { orderNo: 'PRUNE-1', txnTime: new Date('2025-09-20T03:00:00Z') });
    const w = txnWhere({ beginDate: '2025-09-10 00:00:00', endDate: '2025-10-20 23:59:59' } as never, [DEMO.subA], 'Asia/Shanghai');
    const sql = `SELECT t.id FROM txn t WHERE ${w.sql} ORDER BY t.txn_time DESC, t.id DESC LIMIT 10`;
    const parts = await scanned(ctx, sql, w.params);
    expect(parts).toEqual(['txn_p202509', 'txn_p202510']);
    const all = await months(ctx);
    expect(all.length).toBeGreaterThan(8);
    // The service's own query, and a deep page through the deferred join: the same pruning, rows found.
    const rows = await listTxn(ctx.db, w, 0, 10);
    expect(rows.map((r) => r.order_no)).toContain('PRUNE-1');
    expect((await listTxn(ctx.db, w, 1, 10)).length).toBe(0);
  });

  it('an order-number or gateway-id filter reads the one month holding the row, however long the range (EXPLAIN ANALYZE)', async () => {
    await ensureMonths(ctx.db, 'txn', new Date('2025-01-01T00:00:00Z'), new Date('2025-12-31T00:00:00Z'));
    const { gwTransId } = await addTxn(ctx, { orderNo: 'ONE-MONTH-1', txnTime: new Date('2025-04-20T03:00:00Z') });
    await addTxn(ctx, { orderNo: 'ONE-MONTH-2', txnTime: new Date('2025-08-20T03:00:00Z') });
    const range = { beginDate: '2025-01-01 00:00:00', endDate: '2025-12-31 23:59:59' };
    for (const [filter, scope] of [
      [{ ...range, orderNum: 'ONE-MONTH-1' }, [DEMO.subA]],
      [{ ...range, orderNum: 'ONE-MONTH-1' }, [DEMO.subA, DEMO.subB]],
      [{ ...range, gwGTransId: gwTransId }, [DEMO.subA, DEMO.subB]],
    ] as const) {
      const w = txnWhere(filter as never, [...scope], 'Asia/Shanghai');
      const sql = `SELECT t.id, t.order_no FROM txn t WHERE ${w.sql} ORDER BY t.txn_time DESC, t.id DESC LIMIT 10`;
      // Planned over the twelve months; executed in one: the others are never executed.
      expect((await scanned(ctx, sql, w.params)).length).toBeGreaterThanOrEqual(12);
      const { rows: plan } = await ctx.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`, w.params);
      const executed = plan.map((r) => r['QUERY PLAN']).filter((l) => /txn_p\d{6}/.test(l) && !/never executed/.test(l));
      expect(executed.map((l) => /txn_p(\d{6})/.exec(l)![1])).toEqual(['202504']);
      expect((await listTxn(ctx.db, w, 0, 10)).map((r) => r.order_no)).toEqual(['ONE-MONTH-1']);
    }
    // Global search: its order-number and gateway-id probes read the holding month only too.
    let searchSql = '';
    const capture = { query: (sql: string, params?: unknown[]) => ((searchSql = sql), ctx.db.query(sql, params)) } as never;
    for (const text of ['ONE-MONTH-1', gwTransId]) {
      const found = await searchIds(capture, [DEMO.subA, DEMO.subB], text, { txn: true, orderCategories: [] }, 'Asia/Shanghai', 10);
      expect(found.map((r) => r.order_no)).toEqual(['ONE-MONTH-1']);
      const { rows: plan } = await ctx.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${searchSql}`, [[DEMO.subA, DEMO.subB], text, 'Asia/Shanghai', 10]);
      // Apart from the channel's order number (not a key: one probe per month), only April is read.
      const read = plan.map((r) => r['QUERY PLAN']).filter((l) => /txn_p\d{6}/.test(l) && !/channel_order_no|never executed/.test(l));
      expect([...new Set(read.map((l) => /txn_p(\d{6})/.exec(l)![1]))]).toEqual(['202504']);
    }
    // Another merchant's order number finds nothing, through the key as through the ledger.
    const other = txnWhere({ ...range, orderNum: 'ONE-MONTH-1' } as never, [DEMO.other], 'Asia/Shanghai');
    expect(await listTxn(ctx.db, other, 0, 10)).toEqual([]);
  });

  it('order numbers and gateway ids stay unique across months (txn_key)', async () => {
    await addTxn(ctx, { orderNo: 'UNIQ-1', txnTime: new Date('2025-07-02T03:00:00Z') });
    // Through ingestion: the clear 409 in the user's language.
    await expect(addTxn(ctx, { orderNo: 'UNIQ-1', txnTime: new Date('2025-11-02T03:00:00Z') })).rejects.toMatchObject({ httpStatus: 409, key: 'payOrderNoDuplicate' });
    // And by the database itself, whatever the code in front of it does.
    const insert = (gw: string, no: string, at: string) =>
      ctx.db.query(
        `INSERT INTO txn (gw_trans_id, mer_id, order_no, tran_type, gw_response, amount, currency, order_amount, order_currency, payment_schema, bus_line, txn_time, txn_date)
         VALUES ($1, $2, $3, 'PURC', '00', 100, 'CNY', 100, 'CNY', 'WX', 'WX', $4, ($4::timestamptz)::date)`,
        [gw, DEMO.subA, no, at],
      );
    await insert('GW-UNIQ-A', 'UNIQ-2', '2025-07-03 00:00:00+00');
    await expect(insert('GW-UNIQ-B', 'UNIQ-2', '2025-12-03 00:00:00+00')).rejects.toMatchObject({ code: '23505' });
    await expect(insert('GW-UNIQ-A', 'UNIQ-3', '2025-12-03 00:00:00+00')).rejects.toMatchObject({ code: '23505' });
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM txn WHERE order_no IN ('UNIQ-2', 'UNIQ-3')`);
    expect(rows[0].n).toBe(1);
    // Every row has its key, and no key is without its row.
    const { rows: k } = await ctx.db.query<{ orphans: number; missing: number }>(
      `SELECT (SELECT count(*)::int FROM txn_key k WHERE NOT EXISTS (SELECT 1 FROM txn t WHERE t.id = k.id AND t.txn_time = k.txn_time)) AS orphans,
              (SELECT count(*)::int FROM txn t WHERE NOT EXISTS (SELECT 1 FROM txn_key k WHERE k.id = t.id AND k.mer_id = t.mer_id AND k.order_no = t.order_no
                                                                  AND k.gw_trans_id = t.gw_trans_id AND k.txn_time = t.txn_time)) AS missing`,
    );
    expect(k[0]).toEqual({ orphans: 0, missing: 0 });
  });

  it('the key follows an update of its columns and goes with a deleted row', async () => {
    const t = await addTxn(ctx, { orderNo: 'KEY-MOVE', txnTime: new Date('2025-08-05T03:00:00Z') });
    await ctx.db.query(`UPDATE txn SET txn_time = '2025-10-05 03:00:00+00', order_no = 'KEY-MOVED' WHERE id = $1`, [t.id]);
    const { rows } = await ctx.db.query<{ part: string; order_no: string; t: Date }>(
      `SELECT t.tableoid::regclass::text AS part, k.order_no, k.txn_time AS t FROM txn t JOIN txn_key k ON k.id = t.id WHERE t.id = $1`,
      [t.id],
    );
    expect(rows[0].part).toMatch(/txn_p202510$/);
    expect(rows[0].order_no).toBe('KEY-MOVED');
    expect(new Date(rows[0].t).toISOString()).toBe('2025-10-05T03:00:00.000Z');
    await ctx.db.query(`DELETE FROM txn WHERE id = $1`, [t.id]);
    expect((await ctx.db.query(`SELECT 1 FROM txn_key WHERE id = $1`, [t.id])).rows).toEqual([]);
    // The order number is free again.
    await addTxn(ctx, { orderNo: 'KEY-MOVED', txnTime: new Date('2025-08-06T03:00:00Z') });
  });

  it("a past month detaches for archive while a later month's refund still points at its purchase", async () => {
    await ensureMonths(ctx.db, 'txn', new Date('2023-05-01T00:00:00Z'), new Date('2023-06-30T00:00:00Z'));
    const p = await addTxn(ctx, { orderNo: 'ARCH-P', txnTime: new Date('2023-05-30T03:00:00Z') });
    const r = await addTxn(ctx, {
      orderNo: 'ARCH-P-R1',
      tranType: 'REFD',
      originOrderNo: 'ARCH-P',
      amount: 100,
      txnTime: new Date('2023-06-02T03:00:00Z'),
    });
    await expect(detachMonth(ctx.db, 'txn', 'next', new Date())).rejects.toThrow(/YYYY-MM/);
    const thisMonth = partitionName('txn', new Date()).slice(-6);
    await expect(detachMonth(ctx.db, 'txn', `${thisMonth.slice(0, 4)}-${thisMonth.slice(4)}`, new Date())).rejects.toThrow(/not over/);
    await expect(detachMonth(ctx.db, 'txn', '1999-01', new Date())).rejects.toThrow(/no partition/);

    expect(await detachMonth(ctx.db, 'txn', '2023-05', new Date())).toBe('txn_p202305');
    expect(await months(ctx)).not.toContain('txn_p202305');
    // The purchase left the ledger with its month; the archive table holds it; the refund's
    // reference (origin_txn_id → txn_key) still holds.
    expect((await ctx.db.query(`SELECT 1 FROM txn WHERE id = $1`, [p.id])).rows).toEqual([]);
    expect((await ctx.db.query<{ order_no: string }>(`SELECT order_no FROM txn_p202305`)).rows.map((x) => x.order_no)).toEqual(['ARCH-P']);
    const { rows } = await ctx.db.query<{ origin_txn_id: string }>(`SELECT origin_txn_id FROM txn WHERE id = $1`, [r.id]);
    expect(Number(rows[0].origin_txn_id)).toBe(p.id);
    // Attached again, it is read as before.
    await ctx.db.query(`ALTER TABLE txn ATTACH PARTITION txn_p202305 FOR VALUES FROM ('2023-04-30 16:00:00+00') TO ('2023-05-31 16:00:00+00')`);
    expect((await ctx.db.query(`SELECT 1 FROM txn WHERE id = $1`, [p.id])).rows).toHaveLength(1);

    // Archived to a file and dropped: the file holds the month's rows, the database no longer does.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'archive-'));
    const a = await archiveMonth(ctx.db, 'txn', '2023-05', new Date(), dir, { drop: true });
    expect(a).toMatchObject({ rows: 1, dropped: true, file: path.join(dir, 'txn_p202305.csv') });
    const csv = fs.readFileSync(a.file, 'utf8').trim().split('\n');
    expect(csv[0].split(',').slice(0, 3)).toEqual(['id', 'gw_trans_id', 'mer_id']);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain('ARCH-P');
    expect(fs.readdirSync(dir)).toEqual(['txn_p202305.csv']);
    expect((await ctx.db.query(`SELECT to_regclass('txn_p202305') AS r`)).rows[0]).toEqual({ r: null });
    expect((await ctx.db.query(`SELECT 1 FROM txn WHERE id = $1`, [r.id])).rows).toHaveLength(1);
  });

  it('the audit purge drops whole months past retention', async () => {
    const old = new Date(Date.now() - 400 * 86_400_000);
    await ensureMonths(ctx.db, 'audit_log', old);
    await ctx.db.query(`INSERT INTO audit_log (action, username, at) VALUES ('auth.login', 'gone', $1)`, [old]);
    const name = partitionName('audit_log', old);
    expect(await months(ctx, 'audit_log')).toContain(name);
    const { purgeAudit } = await import('../modules/team/audit.service');
    const res = await ctx.db.tx((q) => purgeAudit(q, new Date()));
    expect(res.auditRows).toBeGreaterThanOrEqual(1);
    expect(await months(ctx, 'audit_log')).not.toContain(name);
    expect((await ctx.db.query(`SELECT 1 FROM audit_log WHERE username = 'gone'`)).rows).toEqual([]);
  });

  it.runIf(isConcurrent(kind))('parallel writers of a new month: one creates it, none fails; one order number wins across months', async () => {
    const at = (i: number) => new Date(Date.UTC(2022, 2, 1 + i, 3));
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => addTxn(ctx, { orderNo: `PAR-${i}`, txnTime: at(i) })));
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    expect(await months(ctx)).toContain('txn_p202203');
    // The same order number in eight different months at once: exactly one is written.
    const same = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => addTxn(ctx, { orderNo: 'PAR-SAME', txnTime: new Date(Date.UTC(2025, (i % 6) + 6, 3, 3)) })));
    expect(same.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(same.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason.httpStatus === 409)).toBe(true);
  });

  it('the demo generator over a month boundary: each month made before the day that needs it, no lock on the ledger held across a day', async () => {
    // On PostgreSQL a day's ingestion overlaps the previous day's settlement run; a month made
    // inside that ingestion would hold the ledger's lock while waiting for the run (it did: hung).
    const s = await generateDemoData(ctx.db, { seed: 7, merchants: 0, days: 6, perDay: 5, platformTz: 'Asia/Shanghai', now: new Date('2021-05-03T08:00:00Z') });
    expect(s.from).toBe('2021-04-28');
    expect(s.settledThrough).toBe('2021-05-02');
    expect(await months(ctx)).toEqual(expect.arrayContaining(['txn_p202104', 'txn_p202105']));
    const { rows } = await ctx.db.query<{ part: string; n: number }>(
      `SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM txn WHERE txn_time >= '2021-04-27' AND txn_time < '2021-05-04' GROUP BY 1 ORDER BY 1`,
    );
    expect(rows.map((r) => r.part.replace(/^.*\./, ''))).toEqual(['txn_p202104', 'txn_p202105']);
    expect(rows.reduce((a, r) => a + r.n, 0)).toBe(s.txns);
  }, 120_000);

  it('a refund across a month boundary works through the API', async () => {
    const token = await loginWithStepUp(ctx);
    const p = await addTxn(ctx, { orderNo: 'XM-P', txnTime: new Date(Date.now() - 40 * 86_400_000) });
    const body = form({ id: p.gwTransId, amount: '1.00', txnschema: 'WX' });
    const res = await ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { ...auth(token), ...body.headers }, payload: body.payload });
    expect(res.body.data.code).toBe(0);
    const detail = await ctx.call({ method: 'GET', url: `/api/txn/${p.id}`, headers: auth(token) });
    expect(detail.status).toBe(200);
    expect(detail.body.data.refundable).toBe('99.00');
  });
});
