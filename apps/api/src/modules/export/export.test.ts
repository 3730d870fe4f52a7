import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { addTxn, auth, revoke, settle } from '../txn/txn.fixtures';
import { parseCsv } from '../txn/sheet.reader';
import { drainExports, registerExportSource, runNextExport } from './export.service';
import { neutralise } from './export.writer';

const RANGE = { beginDate: '2026-11-01 00:00:00', endDate: '2026-11-30 23:59:59' };

describe('neutralise', () => {
  it('prefixes text a spreadsheet would run as a formula', () => {
    for (const s of ['=1+2', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx']) expect(neutralise(s)).toBe(`'${s}`);
    for (const s of ['abc', '1-2', 'a=b', '']) expect(neutralise(s)).toBe(s);
  });
});

describe.each(DB_KINDS)('exports and the file-report area (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let other: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await addTxn(ctx, { orderNo: '=HYPERLINK("x")', amount: 12345, txnTime: new Date('2026-11-10T04:00:00Z') });
    await addTxn(ctx, { orderNo: '+1', amount: 100, txnTime: new Date('2026-11-10T03:00:00Z'), gwResponse: '04' });
    await addTxn(ctx, { orderNo: '-2', amount: 200, txnTime: new Date('2026-11-10T02:00:00Z'), merReserve: 'x' });
    await addTxn(ctx, { orderNo: '@3', amount: 300, txnTime: new Date('2026-11-10T01:00:00Z'), gwResponse: '05' });
    const jpy = await addTxn(ctx, { merId: DEMO.subB, orderNo: 'JPY-1', amount: 5000, currency: 'JPY', paymentSchema: 'CARD', paymentBrand: 'visa', txnTime: new Date('2026-11-09T16:30:00Z') });
    await settle(ctx.db, jpy.id, { date: '2026-11-11', currency: 'USD', amount: 3300, fee: 83, flag: 'T' });
    await addTxn(ctx, { merId: DEMO.other, orderNo: 'OTHER-1', currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    demo = (await ctx.login()).token;
    other = (await ctx.login(DEMO.users.other)).token;
  });
  afterAll(() => ctx?.close());

  const get = (token: string, url: string, query: Record<string, string> = {}, lang = 'en', tz = '8') =>
    ctx.call({ method: 'GET', url, headers: { ...auth(token), 'accept-language': lang, 'x-timezone-offset': tz }, query });
  const files = async (token: string) => (await get(token, '/api/report/file/list')).body.data;
  const download = (token: string, id: number) => ctx.app.inject({ method: 'GET', url: `/api/report/file/download/${id}`, headers: auth(token) });

  it("queues a CSV export, writes it in the user's language with zone and UTC columns, neutralised", async () => {
    const q = await get(demo, '/api/txn/exportBack', { ...RANGE, format: 'csv' }, 'zh', '9');
    expect(q.body.code).toBe(0);
    expect(q.body.data.status).toBe('queued');
    const listed = await files(demo);
    expect(listed.content[0]).toMatchObject({ id: q.body.data.id, status: 'queued', format: 'csv' });
    expect(listed.content[0].fileName).toMatch(/^交易明细_\d{8}_\d{6}\.csv$/);
    await drainExports(ctx.deps);
    const ready = (await files(demo)).content[0];
    expect(ready).toMatchObject({ status: 'ready', progress: 100, rowCount: 5 });
    expect(ready.sizeBytes).toBeGreaterThan(100);
    const res = await download(demo, ready.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain(encodeURIComponent(ready.fileName));
    const rows = parseCsv(res.body);
    const header = rows[0];
    expect(header).toContain('交易时间 (UTC+09:00)');
    expect(header).toContain('交易时间 (UTC)');
    expect(header).toContain('订单号');
    const body = rows.slice(1).filter((r) => r.length > 1);
    expect(body).toHaveLength(5);
    const col = (name: string) => header.indexOf(name);
    const first = body[0];
    expect(first[col('订单号')]).toBe('\'=HYPERLINK("x")');
    expect(first[col('交易时间 (UTC+09:00)')]).toBe('2026-11-10 13:00:00');
    expect(first[col('交易时间 (UTC)')]).toBe('2026-11-10 04:00:00');
    expect(first[col('金额')]).toBe('123.45');
    expect(first[col('订单结果')]).toBe('成功');
    expect(first[col('交易类型')]).toBe('消费');
    expect(first[col('支付品牌')]).toBe('WeChat Pay');
    expect(first[col('结算状态')]).toBe('未结算');
    expect(body.map((r) => r[col('订单号')])).toEqual(['\'=HYPERLINK("x")', "'+1", "'-2", "'@3", 'JPY-1']);
    expect(body[1][col('订单结果')]).toBe('处理中');
    expect(body[3][col('订单结果')]).toBe('失败');
    expect(body[4]).toEqual(expect.arrayContaining(['5000', 'JPY', '已划款']));
    expect(res.body).not.toContain('OTHER-1');
  });

  it('writes an XLSX with numbers as numbers and text as typed strings (no apostrophe: never a formula)', async () => {
    const q = await get(demo, '/api/txn/exportBack', { ...RANGE, format: 'xlsx' });
    await runNextExport(ctx.deps);
    const res = await download(demo, q.body.data.id);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const header = (ws.getRow(1).values as string[]).slice(1);
    expect(header).toContain('Transaction time (UTC+08:00)');
    expect(header).toContain('Transaction time (UTC)');
    const cell = (r: number, name: string) => ws.getRow(r).getCell(header.indexOf(name) + 1).value;
    // A plain string cell, shown as typed — not a formula, and without the CSV's protective apostrophe (issue 10, finding 6).
    expect(cell(2, 'Order number')).toBe('=HYPERLINK("x")');
    expect(cell(2, 'Amount')).toBe(123.45);
    expect(cell(2, 'Transaction time (UTC+08:00)')).toBe('2026-11-10 12:00:00');
    expect(cell(6, 'Amount')).toBe(5000);
    expect(ws.rowCount).toBe(6);
  });

  it('streams the file directly from /txn/export and /txn/settleExport', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/txn/export', headers: auth(demo), query: { ...RANGE, format: 'csv', merId: DEMO.subB, timeZone: '-5' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="Transactions_\d{8}_\d{6}\.csv"/);
    // The list's time-zone selector decides the zone of the time column.
    expect(parseCsv(res.body)[0]).toContain('Transaction time (UTC−05:00)');
    const rows = parseCsv(res.body).filter((r) => r.length > 1);
    expect(rows).toHaveLength(2);
    const s = await ctx.app.inject({
      method: 'GET',
      url: '/api/txn/settleExport',
      headers: auth(demo),
      query: { beginDate: '2026-11-01', endDate: '2026-11-30', busLine: 'CARD', setCur: 'USD', clientid: DEMO.subB, format: 'csv' },
    });
    const sr = parseCsv(s.body).filter((r) => r.length > 1);
    expect(sr).toHaveLength(2);
    expect(sr[0]).toContain('Settlement amount');
    expect(sr[1]).toEqual(expect.arrayContaining(['33.00', '0.83', '32.17', '2026-11-11']));
  });

  it('applies the 3-month period rule and rejects bad input', async () => {
    for (const query of <Record<string, string>[]>[
      { beginDate: '2026-01-01 00:00:00', endDate: '2026-11-30 00:00:00' },
      { beginDate: '2026-11-01 00:00:00' },
      { ...RANGE, format: 'pdf' },
      { ...RANGE, gwResponse: 'x' },
    ]) {
      const q = await get(demo, '/api/txn/exportBack', query);
      expect(q.status, JSON.stringify(query)).toBe(400);
      const f = await get(demo, '/api/txn/export', query);
      expect(f.status, JSON.stringify(query)).toBe(400);
    }
    const settleBad = await get(demo, '/api/txn/settleExportBack', { beginDate: '2026-11-30', endDate: '2026-11-01', busLine: 'CARD', setCur: 'USD', clientid: DEMO.subB });
    expect(settleBad.status).toBe(400);
  });

  it('keeps every user to its own files and scope', async () => {
    const mine = (await files(demo)).content;
    expect((await files(other)).content).toHaveLength(0);
    expect((await download(other, mine[0].id)).statusCode).toBe(404);
    const del = await ctx.call({ method: 'POST', url: '/api/report/file/delete', headers: { ...auth(other), ...form({ id: mine[0].id }).headers }, payload: form({ id: mine[0].id }).payload });
    expect(del.status).toBe(404);
    // other-main asking for our merchant exports nothing of ours.
    const q = await get(other, '/api/txn/exportBack', { ...RANGE, format: 'csv', merId: DEMO.subA });
    await drainExports(ctx.deps);
    const res = await download(other, q.body.data.id);
    expect(
      parseCsv(res.body)
        .slice(1)
        .filter((r) => r.length > 1),
    ).toHaveLength(0);
    expect(res.body).toContain('Order number');
  });

  it('deletes a file', async () => {
    const mine = (await files(demo)).content;
    const del = await ctx.call({ method: 'POST', url: '/api/report/file/delete', headers: { ...auth(demo), ...form({ id: mine[0].id }).headers }, payload: form({ id: mine[0].id }).payload });
    expect(del.body.code).toBe(0);
    expect((await files(demo)).content.map((f: any) => f.id)).not.toContain(mine[0].id);
    expect((await download(demo, mine[0].id)).statusCode).toBe(404);
  });

  it('marks a failing export failed with its reason', async () => {
    registerExportSource('test-failing', {
      permission: Perm.txnExport,
      parse: (p) => p,
      fileName: () => 'failing',
      columns: () => [{ key: 'a', label: 'A', type: 'text', value: (r: { a: string }) => r.a }],
      rows: async function* () {
        yield [{ a: '1' }];
        throw new Error('source broke');
      },
    });
    const { enqueueExport } = await import('./export.service');
    const demoId = (await ctx.db.query<{ id: number }>(`SELECT id FROM app_user WHERE username = 'demo'`)).rows[0].id;
    const row = await enqueueExport(ctx.deps, {
      userId: demoId,
      merId: DEMO.group,
      scope: [DEMO.group],
      permissions: [Perm.txnExport],
      kind: 'test-failing',
      params: {},
      lang: 'en',
      tzOffset: 8,
      format: 'csv',
    });
    await drainExports(ctx.deps);
    const f = (await files(demo)).content.find((x: any) => x.id === row.id);
    expect(f).toMatchObject({ status: 'failed', error: 'source broke' });
    expect((await download(demo, row.id)).statusCode).toBe(409);
  });

  it('an attempt that lost its claim (handed back at a shutdown, claimed again) writes neither ready nor failed over the new owner', async () => {
    // one source, held open until the test lets it go: the first attempt ends with rows, the second with an error
    const waiting: ((v: 'rows' | 'throw') => void)[] = [];
    const release = async (how: 'rows' | 'throw') => {
      await expect.poll(() => waiting.length).toBe(1);
      waiting.shift()!(how);
    };
    registerExportSource('test-held', {
      permission: Perm.txnExport,
      parse: (p) => p,
      fileName: () => 'held',
      columns: () => [{ key: 'a', label: 'A', type: 'text', value: (r: { a: string }) => r.a }],
      rows: async function* () {
        const how = await new Promise<'rows' | 'throw'>((r) => waiting.push(r));
        if (how === 'throw') throw new Error('late failure');
        yield [{ a: '1' }];
      },
    });
    const { enqueueExport } = await import('./export.service');
    const { claimNext } = await import('./export.repo');
    const demoId = (await ctx.db.query<{ id: number }>(`SELECT id FROM app_user WHERE username = 'demo'`)).rows[0].id;
    const state = async (id: number) =>
      (await ctx.db.query<{ status: string; error: string | null; path: string | null; started_at: Date }>('SELECT status, error, path, started_at FROM export_file WHERE id = $1', [id])).rows[0];
    for (const how of ['rows', 'throw'] as const) {
      const row = await enqueueExport(ctx.deps, {
        userId: demoId,
        merId: DEMO.group,
        scope: [DEMO.group],
        permissions: [Perm.txnExport],
        kind: 'test-held',
        params: {},
        lang: 'en',
        tzOffset: 8,
        format: 'csv',
      });
      const first = runNextExport(ctx.deps);
      await expect.poll(async () => (await state(row.id)).status).toBe('running');
      const firstClaim = (await state(row.id)).started_at;
      // the shutdown's hand-back (export.service startExportWorker), then another worker's claim
      await ctx.db.query(`UPDATE export_file SET status = 'queued', attempts = greatest(attempts - 1, 0), progress = 0 WHERE id = $1 AND status = 'running'`, [row.id]);
      await new Promise((r) => setTimeout(r, 5));
      const second = await claimNext(ctx.db);
      expect(second?.id).toBe(row.id);
      expect((await state(row.id)).started_at.getTime()).toBeGreaterThan(firstClaim.getTime());
      await release(how);
      expect(await first).toBe(true);
      // the first attempt's outcome is not written: the row stays the second attempt's, running
      expect(await state(row.id), how).toMatchObject({ status: 'running', error: null, path: null });
      expect(
        (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'export.file' AND detail->>'fileId' = $1 AND outcome = 'failure'`, [String(row.id)])).rows[0].n,
      ).toBe(0);
      // the owner's outcome is written
      const { writeExportRow } = await import('./export.service');
      const owner = writeExportRow(ctx.deps, second!);
      await release('rows');
      expect((await owner).status).toBe('ready');
      expect((await state(row.id)).status).toBe('ready');
    }
  });

  it('refuses without permission', async () => {
    const sub = (await ctx.login(DEMO.users.sub)).token;
    expect((await get(sub, '/api/report/file/list')).status).toBe(200);
    await revoke(ctx.db, DEMO.users.sub, Perm.txnExport);
    expect((await get(sub, '/api/txn/exportBack', RANGE)).status).toBe(403);
    expect((await get(sub, '/api/txn/export', RANGE)).status).toBe(403);
    await revoke(ctx.db, DEMO.users.sub, Perm.reportFile);
    expect((await get(sub, '/api/report/file/list')).status).toBe(403);
    await revoke(ctx.db, DEMO.users.sub, Perm.settleList);
    expect((await get(sub, '/api/txn/settleExportBack', { beginDate: '2026-11-01', endDate: '2026-11-30', busLine: 'CARD', setCur: 'USD', clientid: DEMO.subB })).status).toBe(403);
  });
});
