import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CURRENCIES, toDecimal } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { iterateTxn, listTxn, txnWhere } from './txn.repo';
import { LIST_COLUMNS, listRow, money, pgTimestampMs, toTxnRow, type TxnDbRow } from './txn.row';
import { iterateSettle, settleWhere } from './settle.repo';
import { addTxn, settle } from './txn.fixtures';
import { formatInZone, parseZone, zonedToUtc } from './time';

describe('money and time helpers', () => {
  it('formats minor units exactly like toDecimal', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e15, max: 1e15 }), fc.constantFrom(...CURRENCIES), (n, cur) => {
        expect(money(n, cur)).toBe(toDecimal(n, cur));
      }),
    );
  });
  it("reads the server's timestamptz text", () => {
    expect(pgTimestampMs('2026-11-21 10:48:28.532+00')).toBe(Date.parse('2026-11-21T10:48:28.532Z'));
    expect(pgTimestampMs('2026-11-21 10:48:28+00')).toBe(Date.parse('2026-11-21T10:48:28Z'));
    expect(pgTimestampMs('2026-11-21 18:48:28.5+08')).toBe(Date.parse('2026-11-21T10:48:28.500Z'));
    expect(pgTimestampMs('2026-11-21 05:18:28.123456-05:30')).toBe(Date.parse('2026-11-21T10:48:28.123Z'));
  });
  it('converts between zones', () => {
    expect(zonedToUtc('2026-11-21 08:00:00', 'Asia/Shanghai').toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(formatInZone(Date.parse('2026-11-21T00:00:00Z'), 'Asia/Shanghai')).toBe('2026-11-21 08:00:00');
    expect(formatInZone(Date.parse('2026-11-21T00:00:00Z'), -5)).toBe('2026-11-20 19:00:00');
    expect(zonedToUtc('2026-07-01 12:00:00', 'Europe/Berlin').toISOString()).toBe('2026-07-01T10:00:00.000Z');
    expect(parseZone('UTC+9', 8)).toBe(9);
    expect(parseZone('-12', 8)).toBe(-12);
    expect(parseZone('15', 8)).toBe(8);
    expect(parseZone('Asia/Tokyo', 8)).toBe('Asia/Tokyo');
    expect(parseZone('Nowhere/City', 8)).toBe(8);
  });
});

describe.each(DB_KINDS)('keyset walks (%s)', (kind) => {
  let ctx: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const same = new Date('2026-11-10T04:00:00.123Z');
    for (let i = 0; i < 7; i++) {
      const t = await addTxn(ctx, { orderNo: `K-${i}`, txnTime: i < 5 ? same : new Date(same.getTime() - i * 1000), paymentSchema: 'UP', paymentBrand: 'unionpay' });
      await settle(ctx.db, t.id, { date: '2026-11-11', currency: 'CNY', amount: 100, fee: 1 });
    }
  });
  afterAll(() => ctx?.close());

  it("the list's JSON rows show what the full rows show: nulls, signs, currencies, names, times to the second", async () => {
    // B's rows (A's seven are the other tests'); odd values set by SQL where ingestion would refuse them.
    const odd = [
      { orderNo: 'L-JPY', amount: 5000 },
      { orderNo: 'L-USD', amount: 1234567, respMsg: 'declined', txnTime: new Date('2026-11-10T15:59:59.999999Z') },
      { orderNo: 'L-MAN', amount: 250, txnTime: new Date('2026-11-09T16:00:00.000001Z') },
    ];
    for (const o of odd) await addTxn(ctx, { merId: DEMO.subB, currency: 'JPY', paymentSchema: 'CARD', paymentBrand: 'visa', ...o });
    await ctx.db.query(`UPDATE txn SET tran_type = 'MANENTD', amount_sign = -1, origin_order_no = 'K-1' WHERE order_no = 'L-MAN'`);
    await ctx.db.query(`UPDATE txn SET currency = 'USD', order_currency = 'USD' WHERE order_no = 'L-USD'`); // two decimals
    // A message with quotes, a backslash, CJK and a line break (ingestion refuses the control byte).
    await ctx.db.query(`UPDATE txn SET resp_msg = $1 WHERE order_no = 'L-USD'`, ['déclinée "quoted" \\ 注文\n']);
    await ctx.db.query(`UPDATE txn SET gw_response = NULL, resp_msg = NULL, payment_brand = NULL WHERE order_no = 'L-JPY'`);
    const w = txnWhere({}, [DEMO.subA, DEMO.subB], 'Asia/Shanghai');
    const full = await listTxn<TxnDbRow>(ctx.db, w, 0, 50);
    const json = (await listTxn<{ r: unknown[] }>(ctx.db, w, 0, 50, null, LIST_COLUMNS)).map(listRow);
    expect(json.length).toBe(10);
    for (const zone of ['Asia/Shanghai', 'America/New_York', -5] as const) {
      expect(json.map((r) => toTxnRow(r, zone))).toEqual(full.map((r) => toTxnRow(r, zone)));
    }
    const byOrder = Object.fromEntries(json.map((r) => [r.order_no, toTxnRow(r, 'Asia/Shanghai')]));
    expect(byOrder['L-USD']).toMatchObject({ gwAmount: '12345.67', currentTime: '2026-11-10 23:59:59' });
    expect(byOrder['L-JPY']).toMatchObject({ gwAmount: '5000', gwResponse: null, respMsg: null, paymentBrand: null });
    expect(byOrder['L-MAN']).toMatchObject({ gwAmount: '-250', gwTranType: 'MANENTD', mrequest: { originorderno: 'K-1' } });
    expect(new Set(json.map((r) => r.mer_name)).size).toBe(2);
  });

  it('returns every row once across batch boundaries, even with equal times', async () => {
    const w = txnWhere({}, [DEMO.subA], 'Asia/Shanghai');
    const seen: string[] = [];
    for await (const b of iterateTxn(ctx.db, w, [DEMO.subA], 2)) seen.push(...b.map((r) => r.order_no));
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    const s: string[] = [];
    for await (const b of iterateSettle(ctx.db, settleWhere({ beginDate: '2026-11-01', endDate: '2026-11-30', busLine: 'UP', setCur: 'CNY', clientid: DEMO.subA }, [DEMO.subA]), [DEMO.subA], 3)) {
      s.push(...b.map((r) => r.order_no));
      expect(typeof b[0].txn_time).toBe('number');
    }
    expect(new Set(s).size).toBe(7);
  });

  it("a one-merchant list is ordered by the merchant's own index (no sort, no other merchants' rows read); several merchants keep ANY", async () => {
    const plan = async (scope: string[]) => {
      const w = txnWhere({ beginDate: '2026-11-01 00:00:00', endDate: '2026-11-30 23:59:59' }, scope, 'Asia/Shanghai');
      let text = '';
      // In a transaction rolled back: without the time index, and with sorts and sequential scans
      // priced out, a sort-free plan exists only where the merchant index can give the order.
      await ctx.db
        .tx(async (q) => {
          await q.query('DROP INDEX txn_time_idx');
          await q.query('SET LOCAL enable_sort = off');
          await q.query('SET LOCAL enable_seqscan = off');
          const { rows } = await q.query<Record<string, unknown>>(`EXPLAIN SELECT t.id FROM txn t WHERE ${w.sql} ORDER BY t.txn_time DESC, t.id DESC LIMIT 10 OFFSET 3`, w.params);
          text = rows.map((r) => Object.values(r)[0]).join('\n');
          throw new Error('roll back');
        })
        .catch((e: Error) => {
          if (e.message !== 'roll back') throw e;
        });
      return text;
    };
    const one = await plan([DEMO.subA]);
    // txn_mer_time_idx, or on a month of the partitioned ledger its copy txn_pYYYYMM_mer_id_txn_time_id_idx.
    expect(one).toMatch(/txn_mer_time_idx|txn_p\d{6}_mer_id_txn_time_id_idx/);
    expect(one).not.toMatch(/Sort/);
    expect(await plan([DEMO.subA, DEMO.subB])).toMatch(/Sort/);
    expect((await ctx.db.query(`SELECT 1 FROM pg_indexes WHERE indexname = 'txn_time_idx' AND schemaname = current_schema()`)).rows).toHaveLength(1);
    expect(txnWhere({}, [DEMO.subA, DEMO.subB], 'Asia/Shanghai').sql).toMatch(/^t\.mer_id = ANY\(\$1::text\[\]\)/);
    // Several merchants: the array as the driver's literal text, built once per scope array (arrayParam).
    expect(txnWhere({}, [], 'Asia/Shanghai').params[0]).toBe('{}');
    expect(txnWhere({}, [DEMO.subA, DEMO.subB], 'Asia/Shanghai').params[0]).toBe(`{"${DEMO.subA}","${DEMO.subB}"}`);
  });
});
