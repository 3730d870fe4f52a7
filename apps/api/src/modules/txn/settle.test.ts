import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addTxn, auth, revoke, settle } from './txn.fixtures';
import { parseCsv } from './sheet.reader';

/** A multipart/form-data body with one file and some fields. */
export function multipart(file: { name: string; content: string | Buffer }, fields: Record<string, string> = {}) {
  const b = '----portaltest' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
  parts.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
  parts.push(Buffer.from(`\r\n--${b}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${b}` }, payload: Buffer.concat(parts) };
}

describe.each(DB_KINDS)('settle list, logistics, manual blend (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  let other: string;
  const SETTLE = { beginDate: '2026-11-02', endDate: '2026-11-04', busLine: 'UP', setCur: 'CNY', clientid: DEMO.subA };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const mk = async (orderNo: string, type: string, amount: number, date: string | null, sAmt: number, fee: number, over = {}) => {
      const t = await addTxn(ctx, { orderNo, tranType: type, amount, paymentSchema: 'UP', paymentBrand: 'unionpay', originOrderNo: type === 'REFD' ? 'S-1' : null, ...over });
      if (date) await settle(ctx.db, t.id, { date, currency: 'CNY', amount: sAmt, fee });
      return t;
    };
    await mk('S-1', 'PURC', 10000, '2026-11-02', 10000, 250);
    await mk('S-2', 'PURC', 20000, '2026-11-03', 20000, 500, { paymentSchema: 'APP' });
    await mk('S-3', 'REFD', 3000, '2026-11-04', -3000, 0);
    await mk('S-4', 'PURC', 5000, '2026-11-05', 5000, 125); // after the range
    await mk('S-5', 'PURC', 7000, null, 0, 0); // not settled
    await mk('S-6', 'PURC', 4000, '2026-11-03', 4000, 100, { paymentSchema: 'WX', paymentBrand: 'wechat_pay' }); // other business line
    await addTxn(ctx, { merId: DEMO.other, orderNo: 'S-1', currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    demo = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  });
  afterAll(() => ctx?.close());

  const get = (token: string, url: string, query: Record<string, string | number>) =>
    ctx.call({ method: 'GET', url, headers: auth(token), query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  const upload = (token: string, url: string, file: { name: string; content: string | Buffer }, fields?: Record<string, string>, lang = 'en') => {
    const m = multipart(file, fields);
    return ctx.call({ method: 'POST', url, headers: { ...auth(token), ...m.headers, 'accept-language': lang }, payload: m.payload });
  };

  it('lists the transactions behind a settlement row with their sum', async () => {
    const r = await get(demo, '/api/txn/settleList', SETTLE);
    expect(r.body.code).toBe(0);
    expect(r.body.data.content.map((x: any) => x.mrequest.orderno)).toEqual(['S-1', 'S-2', 'S-3']);
    expect(r.body.data.totalElements).toBe(3);
    // (100.00 − 2.50) + (200.00 − 5.00) + (−30.00 − 0) = 262.50
    expect(r.body.data.sum).toEqual({ currency: 'CNY', count: 3, settleAmount: '270.00', fee: '7.50', net: '262.50' });
    expect(r.body.data.content[2]).toMatchObject({ settleDate: '2026-11-04', settleAmount: '-30.00', settleFee: '0.00', settleNet: '-30.00', settleState: 'W' });
    const page = await get(demo, '/api/txn/settleList', { ...SETTLE, page: 1, size: 5 });
    expect(page.body.data.content).toHaveLength(0);
    expect(page.body.data.sum.net).toBe('262.50');
  });

  it('settle list: bad input, permission, other merchant', async () => {
    for (const q of [{ ...SETTLE, beginDate: '2026-11-5' }, { ...SETTLE, setCur: 'cny' }, { ...SETTLE, clientid: '1' }, { beginDate: '2026-11-01' }, { ...SETTLE, beginDate: '2026-11-09' }]) {
      expect((await get(demo, '/api/txn/settleList', q)).status, JSON.stringify(q)).toBe(400);
    }
    const o = await get(other, '/api/txn/settleList', SETTLE);
    expect(o.body.data).toMatchObject({ content: [], totalElements: 0, sum: { net: '0.00' } });
    expect((await get(sub, '/api/txn/settleList', SETTLE)).body.data.totalElements).toBe(3);
    expect((await get(sub, '/api/txn/settleList', { ...SETTLE, clientid: DEMO.subB })).body.data.totalElements).toBe(0);
  });

  it('queues the settle list export', async () => {
    const q = await get(demo, '/api/txn/settleExportBack', { ...SETTLE, format: 'csv' });
    expect(q.body.code).toBe(0);
    const { drainExports } = await import('../export/export.service');
    await drainExports(ctx.deps);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/report/file/download/${q.body.data.id}`, headers: auth(demo) });
    const rows = parseCsv(res.body).filter((r) => r.length > 1);
    expect(rows).toHaveLength(4);
    const net = rows[0].indexOf('Net amount');
    expect(rows.slice(1).reduce((a, r) => a + Math.round(Number(r[net]) * 100), 0)).toBe(26250);
  });

  const CSV_HEADER = 'Order number,Merchant ID,Shipment number,Logistics company,Shipping date,Status\r\n';

  it('imports logistics info from CSV, all rows or none', async () => {
    const good = CSV_HEADER + 'S-1,,SF001,SF Express,2026-11-06,SHIPPED\r\nS-2,,"SF,002",SF Express,2026-11-07,delivered\r\n';
    const r = await upload(demo, '/api/txn/uploadLogisticsInfo', { name: 'ship.csv', content: good });
    expect(r.body).toMatchObject({ code: 0, data: { imported: 2, errors: [] } });
    const list = await get(demo, '/api/txn/settleLogisticsList', {});
    expect(list.body.data.totalElements).toBe(2);
    expect(list.body.data.content[0]).toMatchObject({ orderNo: 'S-2', shipmentNo: 'SF,002', status: 'DELIVERED', shipDate: '2026-11-07', merId: DEMO.subA });
    // each row names its own merchant (the list's join), not another one
    const subAName = (await ctx.db.query<{ name: string }>('SELECT name FROM merchant WHERE mer_id = $1', [DEMO.subA])).rows[0].name;
    expect(list.body.data.content.map((r: any) => r.merName)).toEqual([subAName, subAName]);
    // shipping attaches to a purchase only: S-3 is a refund's order number
    const refund = await upload(demo, '/api/txn/uploadLogisticsInfo', { name: 'ship.csv', content: CSV_HEADER + 'S-3,,SF003,SF Express,2026-11-07,SHIPPED\r\n' });
    expect(refund.body.data).toMatchObject({ imported: 0, errors: [{ row: 2, field: 'orderNo', reason: 'Order S-3 not found' }] });
    const bad =
      CSV_HEADER +
      'S-1,,SF009,SF Express,2026-11-08,SHIPPED\r\n' + // good row (row 2)
      'NOPE,,SF010,SF Express,2026-11-08,SHIPPED\r\n' + // unknown order (row 3)
      'S-2,,,SF Express,2026-13-01,LOST\r\n' + // three errors (row 4)
      'S-1,,SF011,SF Express,2026-11-08,SHIPPED\r\n'; // duplicate (row 5)
    const b = await upload(demo, '/api/txn/uploadLogisticsInfo', { name: 'ship.csv', content: bad });
    expect(b.body.code).toBe(0);
    expect(b.body.data.imported).toBe(0);
    expect(b.body.msg).toContain('3 row');
    const errs = b.body.data.errors.map((e: any) => `${e.row}:${e.field}`);
    expect(errs).toEqual(['3:orderNo', '4:shipmentNo', '4:shipDate', '4:status', '5:orderNo']);
    expect(b.body.data.errors[0].reason).toBe('Order NOPE not found');
    const after = await get(demo, '/api/txn/settleLogisticsList', { orderNum: 'S-1' });
    expect(after.body.data.content[0].shipmentNo).toBe('SF001');
  });

  it('imports XLSX with localized headers and Excel dates; the template downloads', async () => {
    const t = await ctx.app.inject({ method: 'GET', url: '/api/txn/logisticsTemplate', headers: { ...auth(demo), 'accept-language': 'zh' }, query: { format: 'xlsx' } });
    expect(t.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(t.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect((ws.getRow(1).values as string[]).slice(1)).toEqual(['订单号', '商户号', '运单号', '物流公司', '发货日期', '状态']);
    ws.getRow(2).values = ['S-6', DEMO.subA, 'YT-1', 'YTO', new Date(Date.UTC(2026, 10, 9)), '运输中'];
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const r = await upload(demo, '/api/txn/uploadLogisticsInfo', { name: 'ship.xlsx', content: buf }, {}, 'zh');
    expect(r.body.data).toEqual({ imported: 1, errors: [] });
    const l = await get(demo, '/api/txn/settleLogisticsList', { orderNum: 'S-6' });
    expect(l.body.data.content[0]).toMatchObject({ shipDate: '2026-11-09', status: 'IN_TRANSIT', company: 'YTO' });
    const csv = await ctx.app.inject({ method: 'GET', url: '/api/txn/logisticsTemplate', headers: auth(demo), query: { format: 'csv' } });
    expect(parseCsv(csv.body)[0]).toEqual(['Order number', 'Merchant ID', 'Shipment number', 'Logistics company', 'Shipping date', 'Status']);
  });

  it('logistics: bad files, permission, other merchant', async () => {
    expect((await upload(demo, '/api/txn/uploadLogisticsInfo', { name: 'x.pdf', content: 'x' })).status).toBe(400);
    const noHeader = await upload(demo, '/api/txn/uploadLogisticsInfo', { name: 'x.csv', content: 'a,b\r\n1,2\r\n' });
    expect(noHeader.body.data.errors[0]).toMatchObject({ row: 1, field: 'orderNo' });
    // Issue 13 fix 12: csv-parse refuses what is not CSV (an unclosed quote), naming the line, in the user's language; nothing is written.
    const before = (await get(demo, '/api/txn/settleLogisticsList', {})).body.data.totalElements;
    const unclosed = await upload(demo, '/api/txn/uploadLogisticsInfo', { name: 'x.csv', content: CSV_HEADER + `"S-1,${DEMO.subA},X,Y,2026-11-08,SHIPPED\r\n` });
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.msg).toMatch(/^The file is not a readable CSV \(line \d+\): Quote Not Closed/);
    const strayQuote = await upload(demo, '/api/txn/uploadLogisticsInfo', { name: 'x.csv', content: CSV_HEADER + `S"-1,${DEMO.subA},X,Y,2026-11-08,SHIPPED\r\n` }, {}, 'ja');
    expect(strayQuote.body.msg).toMatch(/^読み取れない CSV ファイルです（2 行目）/);
    expect((await get(demo, '/api/txn/settleLogisticsList', {})).body.data.totalElements).toBe(before);
    // A BOM, quoted commas and doubled quotes, mixed line ends are read as CSV says.
    expect(parseCsv('\uFEFFa,b\r\n"x, ""y""",z\n1,2')).toEqual([
      ['a', 'b'],
      ['x, "y"', 'z'],
      ['1', '2'],
    ]);
    const big = await upload(demo, '/api/txn/uploadLogisticsInfo', { name: 'x.csv', content: Buffer.alloc(5 * 1024 * 1024 + 10, 'a') });
    expect(big.status).toBe(400);
    const none = await ctx.call({ method: 'POST', url: '/api/txn/uploadLogisticsInfo', headers: auth(demo), payload: {} });
    expect(none.status).toBe(400);
    // other-main cannot attach shipping to our order: as if it did not exist.
    const o = await upload(other, '/api/txn/uploadLogisticsInfo', { name: 's.csv', content: CSV_HEADER + `S-2,${DEMO.subA},X,Y,2026-11-08,SHIPPED\r\n` });
    expect(o.body.data.errors[0].reason).toBe('Order S-2 not found');
    expect((await get(other, '/api/txn/settleLogisticsList', {})).body.data.totalElements).toBe(0);
    expect((await get(other, '/api/txn/settleLogisticsList', { merId: DEMO.subA })).body.data.totalElements).toBe(0);
    // demo-sub is read-only: may list, may not import.
    expect((await get(sub, '/api/txn/settleLogisticsList', {})).body.code).toBe(0);
    expect((await upload(sub, '/api/txn/uploadLogisticsInfo', { name: 's.csv', content: CSV_HEADER })).status).toBe(403);
    expect((await get(demo, '/api/txn/settleLogisticsList', { beginDate: 'x' })).status).toBe(400);
    await revoke(ctx.db, DEMO.users.sub, Perm.logisticsList);
    expect((await get(sub, '/api/txn/settleLogisticsList', {})).status).toBe(403);
  });

  it('matches a statement against settled transactions', async () => {
    const statement =
      'Order number,Amount,Currency\r\n' +
      'S-1,100.00,CNY\r\n' + // matched
      'S-2,199.00,CNY\r\n' + // amount differs
      'S-3,30.00,USD\r\n' + // currency differs
      'S-5,70.00,CNY\r\n' + // not settled
      'S-99,1.00,CNY\r\n' + // missing from the portal
      'S-6,abc,CNY\r\n'; // bad amount
    const r = await upload(demo, '/api/txn/manualBlend', { name: 'stmt.csv', content: statement }, { beginDate: '2026-11-01', endDate: '2026-11-30' });
    expect(r.body.code).toBe(0);
    const d = r.body.data;
    expect(d.total).toBe(5);
    expect(d.matched).toBe(1);
    expect(d.differing.map((x: any) => [x.orderNo, x.reason])).toEqual([
      ['S-2', 'Amount differs'],
      ['S-3', 'Currency differs'],
      ['S-5', 'Transaction not settled yet'],
    ]);
    expect(d.differing[0]).toMatchObject({ statementAmount: '199.00', portalAmount: '200.00' });
    expect(d.missing.map((x: any) => x.orderNo)).toEqual(['S-99']);
    expect(d.errors).toEqual([expect.objectContaining({ row: 7, field: 'amount' })]);
    expect(d.notInStatement.map((x: any) => x.orderNo).sort()).toEqual(['S-4', 'S-6']);
    // It changes no data, but the run is audited with what it found.
    const a = await ctx.db.query<{ username: string; detail: any }>(`SELECT username, detail FROM audit_log WHERE action = 'txn.manual_blend' ORDER BY id DESC LIMIT 1`);
    expect(a.rows[0]).toMatchObject({
      username: 'demo',
      detail: { total: 5, matched: 1, missing: 1, differing: 3, notInStatement: 2, errors: 1, range: { beginDate: '2026-11-01', endDate: '2026-11-30' } },
    });
  });

  it('manual blend: bad input, permission, other merchant', async () => {
    expect((await upload(demo, '/api/txn/manualBlend', { name: 's.txt', content: 'x' })).status).toBe(400);
    expect((await upload(demo, '/api/txn/manualBlend', { name: 's.csv', content: 'Order number,Amount,Currency\r\n' }, { beginDate: '2026/11/01' })).status).toBe(400);
    expect((await upload(sub, '/api/txn/manualBlend', { name: 's.csv', content: 'Order number,Amount,Currency\r\n' })).status).toBe(403);
    const o = await upload(other, '/api/txn/manualBlend', { name: 's.csv', content: 'Order number,Amount,Currency,Merchant ID\r\n' + `S-2,200.00,CNY,${DEMO.subA}\r\n` });
    expect(o.body.data.missing.map((x: any) => x.orderNo)).toEqual(['S-2']);
  });
});
