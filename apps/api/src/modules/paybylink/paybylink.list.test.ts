import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { buyerPay, createOrder, pbl } from './paybylink.fixtures';

describe.each(DB_KINDS)('pay-by-link list, detail, status, export on %s', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  let other: string;
  const ids: Record<string, { id: number; orderNo: string; linkToken: string }> = {};
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login(DEMO.users.demo)).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
    ids.open = await createOrder(ctx, demo, { reconId: 'R-OPEN' });
    ids.paid = await createOrder(ctx, demo, { reconId: 'R-PAID' });
    ids.processing = await createOrder(ctx, demo, { reconId: 'R-PROC', totalAmount: '10.04', goodsPrice: '10.04' });
    ids.closed = await createOrder(ctx, demo, { reconId: 'R-CLOSED' });
    ids.other = await createOrder(ctx, other, { reconId: 'R-OTHER', orderCurrency: 'SGD' });
    await buyerPay(ctx, ids.paid.linkToken);
    await buyerPay(ctx, ids.processing.linkToken);
    await pbl(ctx, demo).get(`/api/payByLink/closeOrder/${ids.closed.id}`);
    // an order of the sub-merchant (written directly: its read-only user cannot create one)
    await ctx.db.query(
      `INSERT INTO pay_by_link_order (mer_id, order_no, token, recon_id, order_currency, total_amount, goods_name, goods_price, expires_at, created_at)
       VALUES ($1, 'PBLSUB0001', repeat('s', 43), 'R-SUB', 'CNY', 100, 'Tea', 100, $2::timestamptz + interval '7 days', $2)`,
      [DEMO.subA, new Date(ctx.clock.now().getTime() + 1000)],
    );
  });
  afterAll(() => ctx.close());

  const list = (token: string, q = '') => pbl(ctx, token).get(`/api/payByLink/list?page=0&size=10${q}`);
  const recons = (res: { body: { data: { content: { reconId: string }[] } } }) => res.body.data.content.map((r) => r.reconId).sort();

  it('lists the caller scope, newest first, with the spec columns', async () => {
    const res = await list(demo);
    expect(res.body.data.totalElements).toBe(5);
    expect(res.body.data.content[0]).toMatchObject({ reconId: 'R-SUB', merId: DEMO.subA, orderCurrency: 'CNY', totalAmount: '1.00', prodCategory: 'paybylink' });
    expect(Object.keys(res.body.data.content[1])).toEqual(expect.arrayContaining(['orderno', 'createTime', 'reconId', 'orderCurrency', 'totalAmount', 'buyerEmail', 'status', 'openStatus']));
    expect(res.body.data.content[1].createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it.each([
    ['02', ['R-OPEN', 'R-SUB']],
    ['00', ['R-PROC']],
    ['status00', ['R-PAID']],
    ['01', ['R-CLOSED']],
  ])('filters status %s', async (status, expected) => {
    expect(recons(await list(demo, `&status=${status}`))).toEqual(expected);
  });

  it('filters by recon id, order number and creation dates; refuses more than three months', async () => {
    expect(recons(await list(demo, '&reconId=R-PAID'))).toEqual(['R-PAID']);
    expect(recons(await list(demo, `&orderno=${ids.open.orderNo}`))).toEqual(['R-OPEN']);
    expect((await list(demo, '&beginDate=2000-01-01&endDate=2000-01-31')).body.data.totalElements).toBe(0);
    const res = await list(demo, '&beginDate=2026-01-01&endDate=2026-06-30');
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('The selected time range cannot exceed three months');
    expect((await list(demo, '&status=bogus')).status).toBe(400);
  });

  it('shows a sub-merchant user only its merchant, another merchant nothing of ours', async () => {
    expect(recons(await list(sub))).toEqual(['R-SUB']);
    expect(recons(await list(other))).toEqual(['R-OTHER']);
  });

  it('gives the detail with its timeline; another merchant gets not-found', async () => {
    const d = await pbl(ctx, demo).get(`/api/payByLink/${ids.paid.id}`);
    expect(d.body.data).toMatchObject({ status: '00', openStatus: '02', reconId: 'R-PAID', merName: 'Demo Group Ltd', userEmail: 'demo@demo-group.example' });
    expect(d.body.data.paidTime).toMatch(/^\d{4}-/);
    expect(d.body.data.txnId).toBeGreaterThan(0);
    expect(d.body.data.activity.map((a: { kind: string }) => a.kind)).toEqual(['created', 'payment']);
    expect(d.body.data.activity[1].detail).toMatchObject({ result: 'success', brand: 'visa', card: '****1111' });
    const o = await pbl(ctx, other).get(`/api/payByLink/${ids.paid.id}`);
    expect(o.status).toBe(404);
    expect((await pbl(ctx, sub).get(`/api/payByLink/${ids.paid.id}`)).status).toBe(404);
    expect((await pbl(ctx, demo).get('/api/payByLink/999999')).status).toBe(404);
  });

  it('answers the polled status: 04 awaiting, 00 paid, 01 closed; others as absent', async () => {
    const st = async (no: string, token = demo) => (await pbl(ctx, token).get(`/api/payByLink/orderno/${no}`)).body;
    expect((await st(ids.open.orderNo)).data).toMatchObject({ status: '04', openStatus: '02', reconId: 'R-OPEN' });
    expect((await st(ids.paid.orderNo)).data.status).toBe('00');
    expect((await st(ids.closed.orderNo)).data).toMatchObject({ status: '01', openStatus: '01', closeReason: 'merchant' });
    expect((await st(ids.processing.orderNo)).data).toMatchObject({ status: '04', openStatus: '00' });
    expect((await st(ids.open.orderNo, other)).code).toBe(404);
    // the processing payment resolves once the acquirer is asked (amount ending 04 → '00')
    ctx.clock.advance(6_000);
    expect((await st(ids.processing.orderNo)).data).toMatchObject({ status: '00' });
  });

  it('needs the list permission', async () => {
    await ctx.db.query(`UPDATE app_user SET permissions = array_remove(permissions, 'paybylink:list') WHERE username = $1`, [DEMO.users.sub]);
    try {
      expect((await list(sub)).status).toBe(403);
    } finally {
      await ctx.db.query(`UPDATE app_user SET permissions = array_append(permissions, 'paybylink:list') WHERE username = $1`, [DEMO.users.sub]);
    }
  });

  it('exports the filtered orders of the scope as XLSX and CSV files', async () => {
    const x = await pbl(ctx, demo).raw('/api/payByLink/export?status=02');
    expect(x.statusCode).toBe(200);
    expect(x.headers['content-type']).toContain('spreadsheetml');
    expect(String(x.headers['content-disposition'])).toMatch(/attachment; filename=".*\.xlsx"/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const values = ws.getSheetValues().flat().map(String);
    expect(values).toContain('R-OPEN');
    expect(values).toContain('R-SUB');
    expect(values).not.toContain('R-PAID');
    const c = await pbl(ctx, other).raw('/api/payByLink/export?format=csv');
    expect(c.headers['content-type']).toContain('text/csv');
    expect(c.body).toContain('R-OTHER');
    expect(c.body).not.toContain('R-OPEN');
    const zh = await ctx.app.inject({ method: 'GET', url: '/api/payByLink/export?format=csv', headers: { 'x-token': other, 'accept-language': 'zh' } });
    expect(zh.body).toContain('订单号');
  });
});
