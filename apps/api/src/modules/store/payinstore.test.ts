import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { buyerPay, createOrder } from '../paybylink/paybylink.fixtures';
import { addTxn } from '../txn/txn.fixtures';
import { createPis, pis } from './payinstore.fixtures';

const S = DEMO.stores;

describe.each(DB_KINDS)('stores and pay in store /api/payInStore/* on %s', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  let other: string;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login(DEMO.users.demo)).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  });
  afterAll(() => ctx.close());

  it('storeList: the stores of the caller scope with their brands, methods and whether pay in store is enabled', async () => {
    const res = await pis(ctx, demo).get('/api/payInStore/storeList');
    expect(res.body.code).toBe(0);
    const stores = res.body.data as { storeId: string; merId: string; enabled: boolean; methods: { code: string }[]; staticLink: string | null; brands: string[] }[];
    expect(stores.map((s) => s.storeId)).toEqual([S.causewayBay, S.tsimShaTsui, S.nanjingRoad, S.pudongAirport]);
    const byId = Object.fromEntries(stores.map((s) => [s.storeId, s]));
    expect(byId[S.causewayBay]).toMatchObject({
      storeName: 'Causeway Bay Store',
      merId: DEMO.group,
      merName: 'Demo Group Ltd',
      address: '500 Hennessy Road, Causeway Bay, Hong Kong',
      enabled: true,
      cashiers: 0,
    });
    expect(byId[S.causewayBay].methods.map((m) => m.code)).toEqual(['visa', 'mastercard', 'unionpay', 'alipay_cn', 'alipay_hk', 'wechat_pay']);
    expect(byId[S.causewayBay].staticLink).toMatch(/\/pay\/store\/[A-Za-z0-9_-]{43}$/);
    expect(byId[S.pudongAirport]).toMatchObject({ enabled: false, staticLink: null, methods: [], brands: [] });
    const subRes = await pis(ctx, sub).get('/api/payInStore/storeList');
    expect(subRes.body.data.map((s: { storeId: string }) => s.storeId)).toEqual([S.nanjingRoad, S.pudongAirport]);
    const otherRes = await pis(ctx, other).get('/api/payInStore/storeList');
    expect(otherRes.body.data.map((s: { storeId: string }) => s.storeId)).toEqual([S.orchard]);
  });

  it('add → the buyer pays through the QR link → paid, and the transaction carries the store', async () => {
    const o = await createPis(ctx, demo, S.causewayBay, { totalAmount: '58.00' });
    expect(o.orderNo).toMatch(/^PIS\d{8}\d{6}$/);
    expect(o.link).toMatch(/\/pay\/[A-Za-z0-9_-]{43}$/);
    const view = await ctx.call({ method: 'GET', url: `/api/checkout/${o.linkToken}` });
    expect(view.body.data).toMatchObject({ orderno: o.orderNo, merName: 'Demo Group Ltd', storeName: 'Causeway Bay Store', totalAmount: '58.00', orderCurrency: 'HKD', goodsName: 'Milk tea ×2' });
    // only the store's enabled brands (the group has PPRO_IDEAL and amex/jcb through CARD, the store does not offer them)
    expect(view.body.data.methods.map((m: { code: string }) => m.code)).toEqual(['visa', 'mastercard', 'unionpay', 'alipay_cn', 'alipay_hk', 'wechat_pay']);
    expect((await pis(ctx, demo).get(`/api/payInStore/orderno/${o.orderNo}`)).body.data).toEqual({ orderno: o.orderNo, status: '04', openStatus: '02', closeReason: null });
    const paid = await buyerPay(ctx, o.linkToken, 'alipay_hk', '');
    expect(paid.body.data).toMatchObject({ result: 'success', status: '00' });
    expect((await pis(ctx, demo).get(`/api/payInStore/orderno/${o.orderNo}`)).body.data.status).toBe('00');
    const { rows } = await ctx.db.query<{ store_id: string; store_name: string; amount: number; payment_brand: string; source: string; mer_reserve: string | null }>(
      'SELECT store_id, store_name, amount, payment_brand, source, mer_reserve FROM txn WHERE order_no = $1',
      [o.orderNo],
    );
    expect(rows).toEqual([{ store_id: S.causewayBay, store_name: 'Causeway Bay Store', amount: 5800, payment_brand: 'alipay_hk', source: 'paybylink', mer_reserve: null }]);
    const txn = await pis(ctx, demo).get(`/api/txn/list?page=0&size=10&orderNum=${o.orderNo}`);
    const detail = await pis(ctx, demo).get(`/api/txn/${txn.body.data.content[0].id}`);
    expect(detail.body.data.mrequest).toMatchObject({ storeName: 'Causeway Bay Store', storeId: S.causewayBay });
    const d = await pis(ctx, demo).get(`/api/payInStore/${o.id}`);
    expect(d.body.data).toMatchObject({
      orderno: o.orderNo,
      storeId: S.causewayBay,
      storeName: 'Causeway Bay Store',
      status: '00',
      paymentBrand: 'alipay_hk',
      qrType: 'dynamic',
      createdBy: 'demo',
      link: o.link,
    });
    expect(d.body.data.activity.map((a: { kind: string }) => a.kind)).toEqual(['created', 'opened', 'payment']);
    // a brand the store has not enabled is refused at the checkout
    const o2 = await createPis(ctx, demo, S.tsimShaTsui);
    expect((await buyerPay(ctx, o2.linkToken, 'visa')).body).toMatchObject({ code: 400, msg: 'This payment method is not available for this order' });
  });

  it('add: bad input answers 400 with every problem in the caller language and writes nothing', async () => {
    const before = (await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pay_by_link_order WHERE prod_category = 'payinstore'")).rows[0].n;
    const res = await pis(ctx, demo).add({ storeId: S.causewayBay, orderCurrency: 'HKD', totalAmount: '0', goodsName: '' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.data.errors.map((e: { field: string; rule: string }) => `${e.field}:${e.rule}`)).toEqual(['goodsName:goodsNameTips', 'totalAmount:greaterThanZero']);
    const ja = await pis(ctx, demo, 'ja').add({ storeId: S.causewayBay, orderCurrency: 'HKD', totalAmount: '1.234', goodsName: 'Tea' });
    expect(ja.body.msg).toBe('HKD は小数点以下 2 桁までです');
    const zh = await pis(ctx, demo, 'zh').add({ storeId: '', orderCurrency: 'HKD', totalAmount: '1', goodsName: 'Tea' });
    expect(zh.body).toMatchObject({ code: 400, msg: '请选择门店' });
    const cur = await pis(ctx, demo).add({ storeId: S.tsimShaTsui, orderCurrency: 'SGD', totalAmount: '100', goodsName: 'Tea' });
    expect(cur.body).toMatchObject({ code: 400, msg: 'This currency is not enabled for the merchant' });
    const ctl = await pis(ctx, demo, 'ko').add({ storeId: S.causewayBay, orderCurrency: 'HKD', totalAmount: '1', goodsName: 'Tea\u0007' });
    expect(ctl.body).toMatchObject({ code: 400, msg: '제어 문자는 사용할 수 없습니다' });
    expect((await pis(ctx, demo).add({ storeId: 'S1', orderCurrency: 'HKD', totalAmount: '1', goodsName: 'Tea' })).status).toBe(404);
    const after = (await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pay_by_link_order WHERE prod_category = 'payinstore'")).rows[0].n;
    expect(after).toBe(before);
  });

  it("add: a store without any enabled method gets 'You have not enabled this function, please contact sales' in four languages", async () => {
    const expected = {
      en: 'You have not enabled this function, please contact sales',
      zh: '您尚未开通此功能，请联系销售',
      ko: '이 기능이 활성화되지 않았습니다. 영업 담당자에게 문의하세요',
      ja: 'この機能は有効になっていません。営業担当にお問い合わせください',
    };
    for (const [lang, msg] of Object.entries(expected)) {
      const res = await pis(ctx, demo, lang).add({ storeId: S.pudongAirport, orderCurrency: 'CNY', totalAmount: '10', goodsName: 'Tea' });
      expect(res.body).toEqual({ code: 1401, msg, data: null, requestId: expect.any(String) });
    }
    // the merchant lost the channel: the store's brands no longer count
    await ctx.db.query(`UPDATE store SET brands = '{alipay_cn}' WHERE store_id = $1`, [S.pudongAirport]);
    expect((await pis(ctx, demo).add({ storeId: S.pudongAirport, orderCurrency: 'CNY', totalAmount: '10', goodsName: 'Tea' })).body.code).toBe(0);
    await ctx.db.query(`UPDATE merchant SET channels = '{UP,WX}' WHERE mer_id = $1`, [DEMO.subA]);
    try {
      expect((await pis(ctx, demo).add({ storeId: S.pudongAirport, orderCurrency: 'CNY', totalAmount: '10', goodsName: 'Tea' })).body.code).toBe(1401);
      expect((await pis(ctx, demo).get(`/api/payInStore/logoList?storeId=${S.pudongAirport}`)).body.data).toEqual([]);
    } finally {
      await ctx.db.query(`UPDATE merchant SET channels = '{UP,APP,AP,APMP,WX}' WHERE mer_id = $1`, [DEMO.subA]);
      await ctx.db.query(`UPDATE store SET brands = '{}' WHERE store_id = $1`, [S.pudongAirport]);
    }
  });

  it('add: the read-only sub-user may not (403); another merchant’s store answers 404', async () => {
    const res = await pis(ctx, sub).add({ storeId: S.nanjingRoad, orderCurrency: 'CNY', totalAmount: '10', goodsName: 'Tea' });
    expect(res.status).toBe(403);
    expect((await pis(ctx, other).add({ storeId: S.causewayBay, orderCurrency: 'HKD', totalAmount: '10', goodsName: 'Tea' })).body).toMatchObject({ code: 404 });
    expect((await pis(ctx, demo).add({ storeId: S.orchard, orderCurrency: 'SGD', totalAmount: '10', goodsName: 'Tea' })).status).toBe(404);
    // also as query parameters (the spec's "params")
    const q = await ctx.call({ method: 'POST', url: `/api/payInStore/add?storeId=${S.nanjingRoad}&orderCurrency=CNY&totalAmount=12.30&goodsName=Tea`, headers: { 'x-token': demo } });
    expect(q.body.code).toBe(0);
  });

  it('list: filters by store, status, order number and time; in-store orders stay out of the pay-by-link list', async () => {
    const a = await createPis(ctx, demo, S.nanjingRoad, { orderCurrency: 'CNY', totalAmount: '20.00' });
    const b = await createPis(ctx, demo, S.tsimShaTsui, { totalAmount: '30.51' });
    await buyerPay(ctx, b.linkToken, 'wechat_pay', '');
    const pbl = await createOrder(ctx, demo);
    const list = (q = '', token = demo) => pis(ctx, token).get(`/api/payInStore/list?page=0&size=100${q}`);
    const all = await list();
    expect(all.body.code).toBe(0);
    const nos = all.body.data.content.map((r: { orderno: string }) => r.orderno);
    expect(nos).toContain(a.orderNo);
    expect(nos).not.toContain(pbl.orderNo);
    expect(all.body.data.content[0]).toMatchObject({
      orderno: b.orderNo,
      storeId: S.tsimShaTsui,
      storeName: 'Tsim Sha Tsui Kiosk',
      orderCurrency: 'HKD',
      totalAmount: '30.51',
      status: '01',
      openStatus: '01',
      qrType: 'dynamic',
      paymentBrand: 'wechat_pay',
    });
    const byStore = await list(`&storeId=${S.nanjingRoad}`);
    expect(byStore.body.data.content.every((r: { storeId: string }) => r.storeId === S.nanjingRoad)).toBe(true);
    expect(byStore.body.data.totalElements).toBeGreaterThanOrEqual(1);
    expect((await list(`&status=01`)).body.data.content.map((r: { orderno: string }) => r.orderno)).toContain(b.orderNo);
    expect((await list(`&status=02&orderno=${b.orderNo}`)).body.data.totalElements).toBe(0);
    expect((await list(`&orderno=${a.orderNo}`)).body.data.content.map((r: { orderno: string }) => r.orderno)).toEqual([a.orderNo]);
    expect((await list('&beginDate=2020-01-01&endDate=2020-01-31')).body.data.totalElements).toBe(0);
    const pblList = await pis(ctx, demo).get('/api/payByLink/list?page=0&size=100');
    expect(pblList.body.data.content.map((r: { orderno: string }) => r.orderno)).not.toContain(a.orderNo);
    // the sub-user sees its merchant's in-store orders only; the other merchant sees none of ours
    const subList = await list('', sub);
    expect(subList.body.data.content.length).toBeGreaterThan(0);
    expect(subList.body.data.content.every((r: { merId: string }) => r.merId === DEMO.subA)).toBe(true);
    expect((await list('', other)).body.data.totalElements).toBe(0);
    // bad input
    expect((await list('&storeId=nope')).status).toBe(400);
    expect((await list('&status=zz')).status).toBe(400);
    expect((await list('&beginDate=2026-13-45')).status).toBe(400);
    expect((await list('&beginDate=2026-01-01&endDate=2026-06-30')).body.code).toBe(400);
  });

  it('list, export and status use the one strict date-range and text parsers (issue 28): years past 2999, reversed ranges, control characters are 400 in the caller language', async () => {
    const get = (url: string, lang = 'en') => ctx.call({ method: 'GET', url, headers: { 'x-token': demo, 'accept-language': lang } });
    for (const base of ['/api/payInStore/list?page=0&size=10', '/api/payInStore/export?format=csv']) {
      for (const q of [
        '&beginDate=3000-01-01&endDate=3000-01-02',
        '&beginDate=2026-01-01&endDate=9999-12-31',
        '&beginDate=2026-03-02&endDate=2026-03-01',
        '&beginDate=2026-03-02 10:00:00&endDate=2026-03-02 09:59:59',
        '&orderno=a%00b',
      ]) {
        const r = await get(base + q);
        expect(r.status, base + q).toBe(400);
        expect(r.body.code, base + q).toBe(Code.BAD_REQUEST);
      }
      expect((await get(base + '&beginDate=2026-03-01&endDate=2026-03-01')).status, base).toBe(200);
    }
    expect((await get('/api/payInStore/list?page=0&size=10&beginDate=2026-03-02&endDate=2026-03-01', 'zh')).body.msg).toMatch(/[\u4e00-\u9fff]/);
    for (const no of ['a%00b', 'a%0Ab', '%7F', '%20%20']) {
      const r = await get(`/api/payInStore/orderno/${no}`);
      expect(r.status, no).toBe(400);
      expect(r.body.code, no).toBe(Code.BAD_REQUEST);
    }
    expect((await get('/api/payInStore/orderno/a%00b', 'ja')).body.msg).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  });

  it("detail and status: another merchant's order or a pay-by-link order answer 404", async () => {
    const o = await createPis(ctx, demo, S.causewayBay);
    const pblOrder = await createOrder(ctx, demo);
    expect((await pis(ctx, sub).get(`/api/payInStore/${o.id}`)).status).toBe(404); // the group's store: outside the sub-merchant
    expect((await pis(ctx, other).get(`/api/payInStore/${o.id}`)).status).toBe(404);
    expect((await pis(ctx, other).get(`/api/payInStore/orderno/${o.orderNo}`)).status).toBe(404);
    expect((await pis(ctx, demo).get(`/api/payInStore/${pblOrder.id}`)).status).toBe(404);
    expect((await pis(ctx, demo).get(`/api/payInStore/orderno/${pblOrder.orderNo}`)).status).toBe(404);
    expect((await pis(ctx, demo).get('/api/payInStore/abc')).status).toBe(400);
    expect((await pis(ctx, demo).get(`/api/payInStore/${o.id}`)).body.data).toMatchObject({ status: '04', openStatus: '02', expireTime: expect.any(String) });
    // the dynamic QR is valid 30 minutes
    ctx.clock.advance(31 * 60_000);
    demo = (await ctx.login(DEMO.users.demo)).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
    expect((await pis(ctx, demo).get(`/api/payInStore/orderno/${o.orderNo}`)).body.data).toMatchObject({ status: '01', closeReason: 'expired' });
    expect((await buyerPay(ctx, o.linkToken, 'visa')).body.code).toBe(409);
  });

  it('logoList: the store methods (per currency), scope-checked', async () => {
    const res = await pis(ctx, demo).get(`/api/payInStore/logoList?storeId=${S.nanjingRoad}&orderCurrency=CNY`);
    expect(res.body.data).toEqual([
      { code: 'unionpay', name: 'UnionPay', channel: 'UP', logo: '/api/payByLink/logo/unionpay.svg', card: true },
      { code: 'alipay_cn', name: expect.any(String), channel: 'AP', logo: '/api/payByLink/logo/alipay_cn.svg', card: false },
      { code: 'wechat_pay', name: expect.any(String), channel: 'WX', logo: '/api/payByLink/logo/wechat_pay.svg', card: false },
    ]);
    expect((await pis(ctx, demo).get(`/api/payInStore/logoList?storeId=${S.tsimShaTsui}&orderCurrency=USD`)).body.data.map((m: { code: string }) => m.code)).toEqual(['wechat_pay']);
    expect((await pis(ctx, sub).get(`/api/payInStore/logoList?storeId=${S.nanjingRoad}`)).body.code).toBe(0);
    expect((await pis(ctx, other).get(`/api/payInStore/logoList?storeId=${S.nanjingRoad}`)).status).toBe(404);
    expect((await pis(ctx, demo).get(`/api/payInStore/logoList?storeId=${S.nanjingRoad}&orderCurrency=XXX`)).status).toBe(400);
    expect((await pis(ctx, demo).get('/api/payInStore/logoList')).status).toBe(400);
  });

  it("a store's static QR: the buyer enters the amount, is sent to the checkout of a new in-store order, and pays", async () => {
    const stores = (await pis(ctx, demo).get('/api/payInStore/storeList')).body.data as { storeId: string; staticLink: string }[];
    const token = stores.find((s) => s.storeId === S.nanjingRoad)!.staticLink.split('/pay/store/')[1];
    const view = await ctx.call({ method: 'GET', url: `/api/checkout/store/${token}` });
    expect(view.body.data).toMatchObject({ merName: 'Demo Store Shanghai', storeName: '南京路门店 Nanjing Road', currencies: ['CNY', 'USD', 'HKD'] });
    const bad = form({ orderCurrency: 'CNY', totalAmount: '-1' });
    expect((await ctx.call({ method: 'POST', url: `/api/checkout/store/${token}/order`, headers: { ...bad.headers, 'accept-language': 'zh' }, payload: bad.payload })).body).toMatchObject({
      code: 400,
      msg: '数值必须大于 0',
    });
    const f = form({ orderCurrency: 'CNY', totalAmount: '36.50' });
    const made = await ctx.call({ method: 'POST', url: `/api/checkout/store/${token}/order`, headers: f.headers, payload: f.payload });
    expect(made.body.code).toBe(0);
    const linkToken = made.body.data.link.split('/pay/')[1];
    expect((await buyerPay(ctx, linkToken, 'wechat_pay', '')).body.data.result).toBe('success');
    const row = (await pis(ctx, sub).get(`/api/payInStore/list?page=0&size=10&orderno=${made.body.data.orderNo}`)).body.data.content[0];
    expect(row).toMatchObject({ qrType: 'static', storeId: S.nanjingRoad, totalAmount: '36.50', status: '00', goodsName: 'In-store payment' });
    const { rows } = await ctx.db.query<{ action: string; user_id: number | null }>('SELECT action, user_id FROM audit_log WHERE target = $1', [made.body.data.orderNo]);
    expect(rows).toEqual([{ action: 'payinstore.create', user_id: null }]);
    // unknown or disabled stores
    expect((await ctx.call({ method: 'GET', url: `/api/checkout/store/${'x'.repeat(43)}` })).status).toBe(404);
    const pudong = (await ctx.db.query<{ static_token: string }>('SELECT static_token FROM store WHERE store_id = $1', [S.pudongAirport])).rows[0].static_token;
    expect((await ctx.call({ method: 'GET', url: `/api/checkout/store/${pudong}`, headers: { 'accept-language': 'ja' } })).body).toMatchObject({
      code: 1401,
      msg: 'この機能は有効になっていません。営業担当にお問い合わせください',
    });
  });

  it('ingestion: a store name needs its id, the store must be the merchant’s, and the name comes from the store table', async () => {
    await expect(addTxn(ctx, { storeName: 'Somewhere' })).rejects.toMatchObject({ key: 'payStoreIdRequired' });
    await expect(addTxn(ctx, { storeId: S.causewayBay })).rejects.toMatchObject({ key: 'payStoreUnknown' }); // the group's store, a subA transaction
    await expect(addTxn(ctx, { storeId: 'S99999999' })).rejects.toMatchObject({ key: 'payStoreUnknown' });
    const t = await addTxn(ctx, { storeId: S.nanjingRoad, storeName: 'made up' });
    const { rows } = await ctx.db.query<{ store_name: string }>('SELECT store_name FROM txn WHERE id = $1', [t.id]);
    expect(rows[0].store_name).toBe('南京路门店 Nanjing Road');
  });

  it('creating an order is audited; the sub-user cannot reach the create permission but may read', async () => {
    const o = await createPis(ctx, demo, S.causewayBay);
    const { rows } = await ctx.db.query<{ action: string; username: string; mer_id: string }>('SELECT action, username, mer_id FROM audit_log WHERE target = $1', [o.orderNo]);
    expect(rows).toEqual([{ action: 'payinstore.create', username: 'demo', mer_id: DEMO.group }]);
    const info = await pis(ctx, sub).get('/api/user/info');
    expect(info.body.data.permissions).toContain('payinstore:list');
    expect(info.body.data.permissions).not.toContain('payinstore:create');
    expect(info.body.data.permissions).not.toContain('payinstore:cashier:manage');
  });
});
