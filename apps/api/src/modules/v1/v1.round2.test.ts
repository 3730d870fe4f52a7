import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addTxn } from '../txn/txn.fixtures';
import { createApiKey, v1, type TestApiKey } from '../apikey/apikey.fixtures';
import { VALID_ORDER } from '../paybylink/paybylink.fixtures';

/**
 * Issue 50, round two: metadata on refunds, pay links and in-store orders (in the objects and in
 * /v1/events, the webhooks' payloads); expand[] of a refund's purchase and a settlement's transfer;
 * Portal-Version (pinned per key, overridden per call, echoed) with the old version's shape served.
 */
describe.each(DB_KINDS)('/v1 metadata, expand[], Portal-Version (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let key: TestApiKey;
  const expectError = (r: { status: number; body: any }, status: number, code: string, param?: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(r.body.error.code).toBe(code);
    if (param !== undefined) expect(r.body.error.param).toBe(param);
  };
  const events = async (type: string) => (await v1(ctx, key.secret, { method: 'GET', url: '/v1/events', query: { type, limit: '100' } })).body.data as any[];

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    key = await createApiKey(ctx, demo, {
      permissions: [
        Perm.txnList,
        Perm.txnDetail,
        Perm.txnRefund,
        Perm.payByLinkCreate,
        Perm.payByLinkDetail,
        Perm.payByLinkUpdate,
        Perm.payByLinkClose,
        Perm.payInStoreCreate,
        Perm.payInStoreList,
        Perm.developerWebhooks,
        Perm.settleDetail,
        Perm.reportTransfer,
      ],
    });
  });
  afterAll(() => ctx?.close());

  it('metadata on a refund: stored, returned, in /v1/events; bad metadata → 400 naming it; another merchant’s refund absent', async () => {
    const p = await addTxn(ctx, { merId: DEMO.subA, amount: 10000 });
    const r = await v1(ctx, key.secret, { method: 'POST', url: '/v1/refunds', payload: { transaction_id: p.id, amount: '5.00', metadata: { order: 'A-17', note: 'damaged', gone: '' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.metadata).toEqual({ order: 'A-17', note: 'damaged' });
    expect(r.body.purchase).toBe(p.id);
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/refunds/${r.body.id}` })).body.metadata).toEqual({ order: 'A-17', note: 'damaged' });
    const listed = (await v1(ctx, key.secret, { method: 'GET', url: '/v1/refunds' })).body.data.find((x: any) => x.id === r.body.id);
    expect(listed.metadata).toEqual({ order: 'A-17', note: 'damaged' });
    // The webhook payload (the event /v1/events lists is the object delivered) carries it.
    const ev = (await events('refund.succeeded')).find((e) => e.data.order_no === r.body.order_no);
    expect(ev.data.metadata).toEqual({ order: 'A-17', note: 'damaged' });
    // One public transaction shape (decision 079): the refund event's data is the Refund /v1 answered.
    expect(ev.data).toEqual(r.body);
    // A purchase has none: {}.
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/transactions/${p.id}` })).body.metadata).toEqual({});

    const bad = (metadata: unknown) => v1(ctx, key.secret, { method: 'POST', url: '/v1/refunds', payload: { transaction_id: p.id, amount: '1.00', metadata } });
    expectError(await bad(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']))), 400, 'parameter_invalid', 'metadata');
    expectError(await bad({ ['k'.repeat(41)]: 'v' }), 400, 'parameter_invalid');
    expectError(await bad({ long: 'v'.repeat(501) }), 400, 'parameter_invalid', 'metadata.long');
    expectError(await bad({ n: 5 }), 400, 'parameter_invalid', 'metadata.n');
    expectError(await bad('text'), 400, 'parameter_invalid', 'metadata');
    // 50 keys of 40 characters with 500-character values are taken.
    const full = await bad(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${i}`.padStart(40, 'k'), 'v'.repeat(500)])));
    expect(full.status, JSON.stringify(full.body)).toBe(201);
    expect(Object.keys(full.body.metadata)).toHaveLength(50);

    // Another merchant's refund answers as absent (also expanded); a key without txn:detail → 403.
    const op = await addTxn(ctx, { merId: DEMO.other, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    const o = await addTxn(ctx, { merId: DEMO.other, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa', tranType: 'REFD', originTxnId: op.id });
    expectError(await v1(ctx, key.secret, { method: 'GET', url: `/v1/refunds/${o.id}`, query: { 'expand[]': 'purchase' } }), 404, 'resource_missing');
    const lk = await createApiKey(ctx, demo, { permissions: [Perm.txnList] });
    expectError(await v1(ctx, lk.secret, { method: 'GET', url: `/v1/refunds/${r.body.id}`, query: { 'expand[]': 'purchase' } }), 403, 'permission_missing');
  });

  it('metadata on pay links (create, merge on update, an empty value removes a key; in the close event) and on in-store orders', async () => {
    const made = await v1(ctx, key.secret, {
      method: 'POST',
      url: '/v1/payment-links',
      payload: { ...VALID_ORDER, merchant_id: DEMO.subA, orderCurrency: 'CNY', metadata: { crm: 'C-1', campaign: 'xmas' } },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.metadata).toEqual({ crm: 'C-1', campaign: 'xmas' });
    const up = await v1(ctx, key.secret, { method: 'POST', url: `/v1/payment-links/${made.body.id}`, payload: { metadata: { campaign: '', seat: '12A' } } });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.metadata).toEqual({ crm: 'C-1', seat: '12A' });
    // Over 50 keys after the merge: refused, nothing changed.
    const many = Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`m${i}`, 'x']));
    expectError(await v1(ctx, key.secret, { method: 'POST', url: `/v1/payment-links/${made.body.id}`, payload: { metadata: many } }), 400, 'parameter_invalid', 'metadata');
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/payment-links/${made.body.id}` })).body.metadata).toEqual({ crm: 'C-1', seat: '12A' });
    const closed = await v1(ctx, key.secret, { method: 'POST', url: `/v1/payment-links/${made.body.id}/close` });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const ev = (await events('paylink.closed')).find((e) => e.data.orderNo === made.body.orderno);
    expect(ev.data.metadata).toEqual({ crm: 'C-1', seat: '12A' });
    // Metadata alone changes a closed order; other fields are refused there.
    expect((await v1(ctx, key.secret, { method: 'POST', url: `/v1/payment-links/${made.body.id}`, payload: { metadata: { seat: '' } } })).body.metadata).toEqual({ crm: 'C-1' });

    const pis = await v1(ctx, key.secret, {
      method: 'POST',
      url: '/v1/in-store-orders',
      payload: { storeId: DEMO.stores.nanjingRoad, orderCurrency: 'CNY', totalAmount: '10.00', goodsName: 'Tea', metadata: { table: '7' } },
    });
    expect(pis.status, JSON.stringify(pis.body)).toBe(201);
    expect(pis.body.metadata).toEqual({ table: '7' });
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/in-store-orders/${pis.body.id}` })).body.metadata).toEqual({ table: '7' });
    expectError(
      await v1(ctx, key.secret, {
        method: 'POST',
        url: '/v1/in-store-orders',
        payload: { storeId: DEMO.stores.nanjingRoad, orderCurrency: 'CNY', totalAmount: '10.00', goodsName: 'Tea', metadata: { table: 7 } },
      }),
      400,
      'parameter_invalid',
      'metadata.table',
    );
  });

  it('expand[]=purchase on a refund, expand[]=transfer on a settlement; an unknown expand → 400 naming it', async () => {
    const p = await addTxn(ctx, { merId: DEMO.subA, amount: 4000 });
    const r = await v1(ctx, key.secret, { method: 'POST', url: '/v1/refunds', payload: { transaction_id: p.id, amount: '1.00' } });
    const x = await v1(ctx, key.secret, { method: 'GET', url: `/v1/refunds/${r.body.id}`, query: { 'expand[]': 'purchase' } });
    expect(x.status, JSON.stringify(x.body)).toBe(200);
    expect(x.body.purchase).toMatchObject({ id: p.id, type: 'PURC', amount: '40.00', refunded_amount: '1.00' });
    const unknown = await v1(ctx, key.secret, { method: 'GET', url: `/v1/refunds/${r.body.id}`, query: { 'expand[]': ['purchase', 'merchant'] } });
    expectError(unknown, 400, 'expand_invalid', 'expand[]');
    expect(unknown.body.error.message).toContain('merchant');

    await ctx.db.query(
      `INSERT INTO settlement (txn_set_date, mer_id, bus_line, set_cur, txn_count, recon_set_amount, fee_amount, serv_amount, released_amount, net_amount,
         history_pending, total_pending, trans_amount, real_trans_before_fee, tran_fee, real_trans_amount, tran_threshold, trans_period, remit_date, recon_search_date)
       VALUES ('2026-08-03', $1, 'ONLINE', 'CNY', 3, 9700, 300, 0, 0, 9700, 0, 0, 9700, 9700, 100, 9600, 0, 'D', '2026-08-04', '2026-08-03')`,
      [DEMO.subA],
    );
    const id = `2026-08-03.${DEMO.subA}.ONLINE.CNY`;
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/settlements/${id}` })).body.transfer).toBe(id);
    const s = await v1(ctx, key.secret, { method: 'GET', url: `/v1/settlements/${id}`, query: { 'expand[]': 'transfer' } });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(s.body.transfer).toMatchObject({ id, remitDate: '2026-08-04' });
    expectError(await v1(ctx, key.secret, { method: 'GET', url: `/v1/settlements/${id}`, query: { 'expand[]': 'fees' } }), 400, 'expand_invalid', 'expand[]');
    // The transfer inline needs the Transfer report's permission.
    const sk = await createApiKey(ctx, demo, { permissions: [Perm.settleDetail] });
    expectError(await v1(ctx, sk.secret, { method: 'GET', url: `/v1/settlements/${id}`, query: { 'expand[]': 'transfer' } }), 403, 'permission_missing');
  });

  it('Portal-Version: pinned per key at creation, a header overrides it, echoed; the old version keeps its time format', async () => {
    const pinned = (await ctx.db.query<{ api_version: string }>('SELECT api_version FROM api_key WHERE id = $1', [key.id])).rows[0].api_version;
    // The newest version when the key was made (2026-12-03 since the events' one-form version, decision 075).
    expect(pinned).toBe('2026-12-03');
    const made = await v1(ctx, key.secret, { method: 'POST', url: '/v1/in-store-orders', payload: { storeId: DEMO.stores.nanjingRoad, orderCurrency: 'CNY', totalAmount: '12.00', goodsName: 'Tea' } });
    expect(made.headers['portal-version']).toBe('2026-12-03');
    const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    const OLD = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
    expect(made.body.createTime).toMatch(ISO);
    expect(made.body.expireTime).toMatch(ISO);
    const url = `/v1/in-store-orders/${made.body.id}`;
    const old = await v1(ctx, key.secret, { method: 'GET', url, headers: { 'portal-version': '2026-06-01' } });
    expect(old.status).toBe(200);
    expect(old.headers['portal-version']).toBe('2026-06-01');
    expect(old.body.createTime).toMatch(OLD);
    expect(old.body.expireTime).toMatch(OLD);
    // A key pinned to the old version answers in it without the header; the header moves it forward.
    await ctx.db.query("UPDATE api_key SET api_version = '2026-06-01' WHERE id = $1", [key.id]);
    const byKey = await v1(ctx, key.secret, { method: 'GET', url });
    expect(byKey.headers['portal-version']).toBe('2026-06-01');
    expect(byKey.body.expireTime).toMatch(OLD);
    expect((await v1(ctx, key.secret, { method: 'GET', url, headers: { 'portal-version': '2026-12-01' } })).body.expireTime).toMatch(ISO);
    await ctx.db.query("UPDATE api_key SET api_version = '2026-12-01' WHERE id = $1", [key.id]);
    // A pay link likewise: ISO in 2026-12-01, the zone's format in 2026-06-01 (the same instant).
    const pl = await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', payload: { ...VALID_ORDER, merchant_id: DEMO.subA, orderCurrency: 'CNY' } });
    expect(pl.body.createTime).toMatch(ISO);
    expect(pl.body.expireTime).toMatch(ISO);
    const plOld = await v1(ctx, key.secret, { method: 'GET', url: `/v1/payment-links/${pl.body.id}`, headers: { 'portal-version': '2026-06-01' } });
    expect(plOld.body.createTime).toMatch(OLD);
    expect(plOld.body.expireTime).toMatch(OLD);
    const bad = await v1(ctx, key.secret, { method: 'GET', url, headers: { 'portal-version': '2025-01-01' } });
    expectError(bad, 400, 'version_invalid', 'Portal-Version');
    expect(bad.body.error.message).toContain('2026-12-01');
  });
});
