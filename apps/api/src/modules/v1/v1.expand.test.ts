import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addTxn } from '../txn/txn.fixtures';
import { createApiKey, v1, type TestApiKey } from '../apikey/apikey.fixtures';

/**
 * Issue 50: expand[] on the lists — each refund's purchase (`expand[]=data.purchase`, or
 * `purchase`) on GET /v1/refunds, each batch's transfer (`data.transfer`, or `transfer`) on GET
 * /v1/settlements; an unknown name → 400 naming it, the transfer without report:transfer → 403,
 * and nothing of another merchant ever expanded.
 */
describe.each(DB_KINDS)('/v1 lists: expand[] (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let key: TestApiKey;
  const expectError = (r: { status: number; body: any }, status: number, code: string, param?: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(r.body.error.code).toBe(code);
    if (param !== undefined) expect(r.body.error.param).toBe(param);
  };
  const batch = (date: string, merId: string, cur: string) =>
    ctx.db.query(
      `INSERT INTO settlement (txn_set_date, mer_id, bus_line, set_cur, txn_count, recon_set_amount, fee_amount, serv_amount, released_amount, net_amount,
         history_pending, total_pending, trans_amount, real_trans_before_fee, tran_fee, real_trans_amount, tran_threshold, trans_period, remit_date, recon_search_date)
       VALUES ($2::date, $1, 'ONLINE', $3, 3, 9700, 300, 0, 0, 9700, 0, 0, 9700, 9700, 100, 9600, 0, 'D', $2::date + 1, $2::date)`,
      [merId, date, cur],
    );

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    key = await createApiKey(ctx, demo, { permissions: [Perm.txnList, Perm.txnDetail, Perm.txnRefund, Perm.settleDetail, Perm.reportTransfer] });
  });
  afterAll(() => ctx?.close());

  it('GET /v1/refunds?expand[]=data.purchase: each refund with its purchase inline (a shared purchase read once); without it, the id', async () => {
    const p1 = await addTxn(ctx, { merId: DEMO.subA, amount: 5000, orderNo: 'EXP-L-1' });
    const p2 = await addTxn(ctx, { merId: DEMO.subA, amount: 7000, orderNo: 'EXP-L-2' });
    const made: number[] = [];
    for (const [p, amount] of [
      [p1, '1.00'],
      [p1, '2.00'],
      [p2, '3.00'],
    ] as const)
      made.push((await v1(ctx, key.secret, { method: 'POST', url: '/v1/refunds', payload: { transaction_id: p.id, amount } })).body.id);
    for (const form of ['data.purchase', 'purchase']) {
      const r = await v1(ctx, key.secret, { method: 'GET', url: '/v1/refunds', query: { 'expand[]': form, merId: DEMO.subA, limit: '100' } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const mine = r.body.data.filter((x: any) => made.includes(x.id));
      expect(mine).toHaveLength(3);
      for (const x of mine) {
        expect(x.purchase.id).toBe(x.origin_transaction_id);
        expect(x.purchase.type).toBe('PURC');
        expect(x.purchase).not.toHaveProperty('purchase');
      }
      expect(mine.find((x: any) => x.purchase.id === p1.id).purchase).toMatchObject({ amount: '50.00', refunded_amount: '3.00' });
    }
    const plain = await v1(ctx, key.secret, { method: 'GET', url: '/v1/refunds', query: { merId: DEMO.subA } });
    expect(plain.body.data.filter((x: any) => made.includes(x.id)).every((x: any) => typeof x.purchase === 'number')).toBe(true);
    // Cursor paging keeps the expansion on every page.
    const first = await v1(ctx, key.secret, { method: 'GET', url: '/v1/refunds', query: { 'expand[]': 'data.purchase', limit: '1' } });
    const next = await v1(ctx, key.secret, { method: 'GET', url: '/v1/refunds', query: { 'expand[]': 'data.purchase', limit: '1', cursor: first.body.next_cursor } });
    expect(typeof next.body.data[0].purchase).toBe('object');
    // Bad input: an unknown expansion, named.
    expectError(await v1(ctx, key.secret, { method: 'GET', url: '/v1/refunds', query: { 'expand[]': 'data.merchant' } }), 400, 'expand_invalid', 'expand[]');
    // A key without txn:list → 403.
    const nolist = await createApiKey(ctx, demo, { permissions: [Perm.txnDetail] });
    expectError(await v1(ctx, nolist.secret, { method: 'GET', url: '/v1/refunds', query: { 'expand[]': 'data.purchase' } }), 403, 'permission_missing');
  });

  it("another merchant's refunds are never listed nor expanded", async () => {
    const op = await addTxn(ctx, { merId: DEMO.other, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    const or = await addTxn(ctx, { merId: DEMO.other, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa', tranType: 'REFD', originTxnId: op.id, amount: 100 });
    const r = await v1(ctx, key.secret, { method: 'GET', url: '/v1/refunds', query: { 'expand[]': 'data.purchase', limit: '100' } });
    expect(r.status).toBe(200);
    expect(r.body.data.map((x: any) => x.id)).not.toContain(or.id);
    expect(JSON.stringify(r.body)).not.toContain(DEMO.other);
    expect((await v1(ctx, key.secret, { method: 'GET', url: '/v1/refunds', query: { 'expand[]': 'data.purchase', merId: DEMO.other } })).body.data).toEqual([]);
  });

  it('GET /v1/settlements?expand[]=data.transfer: each batch with its transfer; 403 without report:transfer; another merchant’s batches absent', async () => {
    await batch('2026-09-01', DEMO.subA, 'CNY');
    await batch('2026-09-02', DEMO.subA, 'CNY');
    await batch('2026-09-02', DEMO.subB, 'USD');
    await batch('2026-09-02', DEMO.other, 'SGD');
    for (const form of ['data.transfer', 'transfer']) {
      const r = await v1(ctx, key.secret, { method: 'GET', url: '/v1/settlements', query: { beginDate: '2026-09-01', endDate: '2026-09-30', 'expand[]': form } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data.map((b: any) => b.id).sort()).toEqual([`2026-09-01.${DEMO.subA}.ONLINE.CNY`, `2026-09-02.${DEMO.subA}.ONLINE.CNY`, `2026-09-02.${DEMO.subB}.ONLINE.USD`]);
      for (const b of r.body.data) expect(b.transfer).toMatchObject({ id: b.id, txnSetDate: b.txnSetDate, clientid: b.clientid });
    }
    const plain = await v1(ctx, key.secret, { method: 'GET', url: '/v1/settlements', query: { beginDate: '2026-09-01', endDate: '2026-09-30' } });
    expect(plain.body.data.every((b: any) => b.transfer === b.id)).toBe(true);
    expectError(
      await v1(ctx, key.secret, { method: 'GET', url: '/v1/settlements', query: { beginDate: '2026-09-01', endDate: '2026-09-30', 'expand[]': 'data.fees' } }),
      400,
      'expand_invalid',
      'expand[]',
    );
    const sk = await createApiKey(ctx, demo, { permissions: [Perm.settleDetail] });
    expectError(await v1(ctx, sk.secret, { method: 'GET', url: '/v1/settlements', query: { beginDate: '2026-09-01', endDate: '2026-09-30', 'expand[]': 'data.transfer' } }), 403, 'permission_missing');
    expect((await v1(ctx, sk.secret, { method: 'GET', url: '/v1/settlements', query: { beginDate: '2026-09-01', endDate: '2026-09-30' } })).status).toBe(200);
    const theirs = await v1(ctx, key.secret, { method: 'GET', url: '/v1/settlements', query: { beginDate: '2026-09-01', endDate: '2026-09-30', merId: DEMO.other, 'expand[]': 'data.transfer' } });
    expect(theirs.body.data).toEqual([]);
  });
});
