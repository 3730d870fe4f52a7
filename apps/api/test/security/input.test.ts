import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../helpers';

/**
 * Issue 10, findings 4, 5 and 8 (lengths): impossible dates, reversed ranges and control
 * characters are refused with a 400 envelope in the caller's language on every kind of input
 * (list, report, export, settle, logistics, pay-by-link, sign-in); lengths count characters.
 */
describe.each(DB_KINDS)('strict input (%s)', (kind) => {
  let ctx: TestCtx;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    token = (await ctx.login()).token;
  });
  afterAll(() => ctx?.close());

  const get = (url: string, query: Record<string, string>, lang = 'en') => ctx.call({ method: 'GET', url, query, headers: { 'x-token': token, 'accept-language': lang } });
  const post = (url: string, body: Record<string, string>) => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, payload: f.payload, headers: { ...f.headers, 'x-token': token } });
  };
  const expect400 = (r: Awaited<ReturnType<typeof get>>, text: RegExp) => {
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ code: 400, data: null });
    expect(r.body.msg).toMatch(text);
  };

  const settle = { busLine: 'UP', setCur: 'CNY', clientid: DEMO.subA };
  const impossible: [string, Record<string, string>][] = [
    ['/api/txn/list', { beginDate: '0000-00-00 00:00:00', endDate: '2026-01-02 00:00:00' }],
    ['/api/txn/list', { beginDate: '2026-02-30 00:00:00', endDate: '2026-03-02 00:00:00' }],
    ['/api/txn/list', { beginDate: '2026-02-01 25:00:00', endDate: '2026-03-02 00:00:00' }],
    ['/api/txn/totals', { beginDate: '2026-02-01 00:00:00', endDate: '2026-02-31 00:00:00' }],
    ['/api/txn/export', { beginDate: '0000-00-00 00:00:00', endDate: '2026-01-02 00:00:00' }],
    ['/api/txn/exportBack', { beginDate: '2026-02-30 00:00:00', endDate: '2026-03-02 00:00:00' }],
    ['/api/txn/settleList', { ...settle, beginDate: '2026-02-30', endDate: '2026-03-02' }],
    ['/api/txn/settleExport', { ...settle, beginDate: '0000-00-00', endDate: '2026-03-02' }],
    ['/api/txn/settleLogisticsList', { beginDate: '2026-02-30', endDate: '2026-03-02' }],
    ['/api/payByLink/list', { beginDate: '2026-02-30', endDate: '2026-03-02' }],
    ['/api/payByLink/export', { beginDate: '2026-01-01 24:00:00', endDate: '2026-03-02' }],
    ['/api/report/bill/list', { beginDate: '0000-00-00', endDate: '2026-01-02' }],
    ['/api/report/bill/export', { beginDate: '2026-02-30', endDate: '2026-03-02' }],
    ['/api/report/reserve/list', { releaseBeginDate: '2026-02-29', releaseEndDate: '2026-03-02' }],
  ];
  it.each(impossible)('refuses an impossible date: %s %j', async (url, query) => {
    expect400(await get(url, query), /real date/);
  });

  it("answers in the caller's language", async () => {
    expect400(await get('/api/txn/list', { beginDate: '2026-02-30 00:00:00' }, 'zh'), /请求参数错误.*有效日期/);
    expect400(await get('/api/txn/settleLogisticsList', { orderNum: 'a\u0000b' }, 'ja'), /制御文字/);
    expect400(await get('/api/payByLink/list', { beginDate: '2026-03-02', endDate: '2026-03-01' }, 'ko'), /beginDate.*endDate.*늦을 수 없습니다/);
  });

  const reversed: [string, Record<string, string>][] = [
    ['/api/txn/list', { beginDate: '2026-03-02 00:00:00', endDate: '2026-03-01 00:00:00' }],
    ['/api/txn/settleList', { ...settle, beginDate: '2026-03-02', endDate: '2026-03-01' }],
    ['/api/txn/settleLogisticsList', { beginDate: '2026-03-02', endDate: '2026-03-01' }],
    ['/api/payByLink/list', { beginDate: '2026-03-02 10:00:00', endDate: '2026-03-02 09:59:59' }],
    ['/api/report/bill/list', { beginDate: '2026-03-02', endDate: '2026-03-01' }],
  ];
  it.each(reversed)('refuses a reversed range: %s %j', async (url, query) => {
    expect400(await get(url, query), /must not be after/);
  });

  const controls: [string, Record<string, string>][] = [
    ['/api/txn/list', { orderNum: 'A\u0000' }],
    ['/api/txn/list', { merReserve: '\u0007bell' }],
    ['/api/txn/totals', { userName: 'x\u009b' }],
    ['/api/txn/settleList', { ...settle, beginDate: '2026-03-01', endDate: '2026-03-02', busLine: 'U\u0000P' }],
    ['/api/txn/settleLogisticsList', { shipmentNo: 'SF\u0000' }],
    ['/api/payByLink/list', { reconId: 'R\u0000' }],
    ['/api/payByLink/orderno/A%00B', {}],
    ['/api/report/bill/list', { beginDate: '2026-03-01', endDate: '2026-03-02', userName: 'u\u0000' }],
  ];
  it.each(controls)('refuses control characters: %s %j', async (url, query) => {
    expect400(await get(url, query), /control characters/);
  });

  it('refuses a NUL byte in the user name at sign-in (no 500 from the database)', async () => {
    for (const url of ['/api/user/getEmailCode', '/api/user/login']) {
      const r = await ctx.call({ method: 'POST', url, ...form({ username: 'demo\u0000', password: 'x' }) });
      expect(r.status, url).toBe(400);
      expect(r.body.msg).toMatch(/control characters/);
    }
  });

  it('refuses control characters in a pay-link form, allows line breaks in remarks', async () => {
    const base = { reconId: 'R-CTRL', orderCurrency: 'CNY', totalAmount: '10', goodsName: 'Tea', goodsPrice: '10', goodsQuantity: '1' };
    const bad = await post('/api/payByLink/add', { ...base, goodsName: 'T\u0000ea' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/goodsName: must not contain control characters/);
    const ok = await post('/api/payByLink/add', { ...base, remarks: 'line 1\r\nline 2\tend' });
    expect(ok.body.code, ok.body.msg).toBe(0);
  });

  it('counts characters, not UTF-16 units: 128 emoji fit a 128-character field', async () => {
    const emoji = '😀'.repeat(128);
    expect((await get('/api/txn/list', { userName: emoji })).body.code).toBe(0);
    expect400(await get('/api/txn/list', { userName: `${emoji}😀` }), /at most 128 characters/);
    const add = await post('/api/payByLink/add', { reconId: 'R-EMOJI', orderCurrency: 'CNY', totalAmount: '10', goodsName: emoji, goodsPrice: '10', goodsQuantity: '1', remarks: '😀'.repeat(256) });
    expect(add.body.code, add.body.msg).toBe(0);
  });
});

/** Issue 10, finding 7: the API keeps total = unit price × quantity + shipping; the checkout's lines add up. */
describe.each(DB_KINDS)('pay-link totals (%s)', (kind) => {
  let ctx: TestCtx;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    token = (await ctx.login()).token;
  });
  afterAll(() => ctx?.close());
  const post = (url: string, body: Record<string, string>, lang = 'en') => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, payload: f.payload, headers: { ...f.headers, 'x-token': token, 'accept-language': lang } });
  };
  const order = { reconId: 'R-SUM', orderCurrency: 'USD', goodsName: 'Tea', totalAmount: '1', goodsPrice: '500', goodsQuantity: '3', logFee: '7' };

  it('refuses a total that does not add up, on create and update, and changes nothing', async () => {
    const bad = await post('/api/payByLink/add', order, 'zh');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('订单总额须等于 单价 × 数量 + 运费：1507.00 USD');
    expect(bad.body.data.errors).toEqual([expect.objectContaining({ field: 'totalAmount', rule: 'totalMismatch' })]);
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pay_by_link_order WHERE recon_id = 'R-SUM'`);
    expect(rows[0].n).toBe(0);

    const good = await post('/api/payByLink/add', { ...order, totalAmount: '1507.00' });
    expect(good.body.code, good.body.msg).toBe(0);
    const upd = await post('/api/payByLink/updateOrder', { id: String(good.body.data.id), totalAmount: '1', goodsPrice: '500', goodsQuantity: '3', logFee: '7' });
    expect(upd.status).toBe(400);
    expect(upd.body.data.errors[0].rule).toBe('totalMismatch');

    const token43 = good.body.data.payByLink.split('/pay/')[1];
    const view = await ctx.call({ method: 'GET', url: `/api/checkout/${token43}` });
    expect(view.body.data).toMatchObject({ goodsPrice: '500.00', goodsQuantity: 3, subtotal: '1500.00', logFee: '7.00', totalAmount: '1507.00', linesAddUp: true });
  });
});
