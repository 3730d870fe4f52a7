/** Report exports: a file for a short range, the durable queue (→ /report/file) for a long one. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addDays } from '../payments/time';
import { drainExports } from '../export/export.service';
import { generateReportData } from './report.fixtures';
import { fetchAll, get } from './report.test-utils';

const FROM = '2026-06-01';
const DAYS = 40;
const SHORT = { beginDate: addDays(FROM, 1), endDate: addDays(FROM, 20) };
const LONG = { beginDate: addDays(FROM, 1), endDate: addDays(FROM, DAYS + 1) };

const EXPORTS = [
  { list: 'bill/list', exp: 'bill/export', perm: Perm.reportBill, header: 'Settlement date,Merchant ID,Merchant name,Acquirer,Business line,Settlement currency,Settlement amount' },
  {
    list: 'transfer/list',
    exp: 'transfer/export',
    perm: Perm.reportTransfer,
    header: 'Settlement date,Merchant ID,Merchant name,Acquirer,Business line,Settlement currency,Total settlement amount,Reserve amount',
  },
  { list: 'txn/newList', exp: 'txn/newExport', perm: Perm.reportTxn, header: 'Transaction date,Merchant ID,Merchant name,Acquirer,Payment brand,Transaction type,Count' },
  { list: 'txn/list', exp: 'txn/export', perm: Perm.reportTxn, header: 'Transaction date,Merchant ID,Merchant name,Acquirer,Transaction type,Count' },
  { list: 'reserve/list', exp: 'reserve/export', perm: Perm.reportReserve, header: 'Settlement date,Merchant ID,Merchant name,Business line,Settlement currency,Release amount' },
] as const;

const lines = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);

describe.each(DB_KINDS)('report exports (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await generateReportData(ctx.db, ctx.config.platformTz, { from: FROM, days: DAYS, perDay: 12, seed: 5 });
    demo = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
  }, 240_000);
  afterAll(() => ctx?.close());

  describe.each(EXPORTS)('GET /api/report/$exp', ({ list, exp, perm, header }) => {
    const url = `/api/report/${exp}`;

    it("sends a short range as a file with the list's rows, in the caller's language", async () => {
      const rows = await fetchAll(ctx, demo, `/api/report/${list}`, SHORT);
      const r = await get(ctx, demo, url, { ...SHORT, format: 'csv' });
      expect(r.status).toBe(200);
      expect(String(r.headers['content-type'])).toContain('text/csv');
      expect(String(r.headers['content-disposition'])).toMatch(/attachment; filename=/);
      const out = lines((r.body as any).raw);
      expect(out[0].startsWith(header)).toBe(true);
      expect(out).toHaveLength(rows.length + 1);
      expect(out[1].split(',')[1]).toBe((rows[0] as any).clientid);
      const x = await get(ctx, demo, url, { ...SHORT, format: 'xlsx' });
      expect(String(x.headers['content-type'])).toContain('spreadsheetml');
      const zh = await ctx.call({ method: 'GET', url: `${url}?beginDate=${SHORT.beginDate}&endDate=${SHORT.endDate}&format=csv`, headers: { 'x-token': demo, 'accept-language': 'zh' } });
      expect(lines((zh.body as any).raw)[0]).toMatch(/商户号/);
    });

    it('queues a long range; the file lands in the file area with every row', async () => {
      const rows = await fetchAll(ctx, demo, `/api/report/${list}`, LONG);
      const r = await get(ctx, demo, url, { ...LONG, format: 'csv' });
      expect(r.body.code).toBe(0);
      expect(r.body.msg).toMatch(/queued/);
      expect(r.body.data.status).toBe('queued');
      await drainExports(ctx.deps);
      const files = await get(ctx, demo, '/api/report/file/list', { page: 0, size: 10 });
      const f = files.body.data.content.find((x: any) => x.id === r.body.data.id);
      expect(f).toMatchObject({
        status: 'ready',
        rowCount: rows.length,
        format: 'csv',
        kind: `report.${exp === 'txn/export' ? 'summaryOld' : exp === 'txn/newExport' ? 'summary' : exp.split('/')[0]}`,
      });
      const dl = await ctx.call({ method: 'GET', url: `/api/report/file/download/${f.id}`, headers: { 'x-token': demo } });
      expect(lines((dl.body as any).raw)).toHaveLength(rows.length + 1);
      const forced = await get(ctx, demo, url, { ...SHORT, mode: 'queue' });
      expect(forced.body.data.status).toBe('queued');
    });

    it('refuses bad input, a missing permission, and exports nothing of another merchant', async () => {
      const long = await get(ctx, demo, url, { beginDate: '2026-01-01', endDate: '2026-06-01' });
      expect(long.status).toBe(400);
      expect(long.body.msg).toBe('The selected time range cannot exceed three months');
      expect((await get(ctx, demo, url, { ...SHORT, format: 'pdf' })).status).toBe(400);
      await ctx.db.query('UPDATE app_user SET permissions = array_remove(permissions, $2) WHERE username = $1', [DEMO.users.sub, perm]);
      try {
        expect((await get(ctx, sub, url, SHORT)).body.code).toBe(403);
      } finally {
        await ctx.db.query('UPDATE app_user SET permissions = array_append(permissions, $2) WHERE username = $1', [DEMO.users.sub, perm]);
      }
      const r = await get(ctx, sub, url, { ...SHORT, merId: DEMO.group, format: 'csv' });
      expect(lines((r.body as any).raw)).toHaveLength(1);
      const q = await get(ctx, sub, url, { ...LONG, merId: DEMO.subB, format: 'csv' });
      await drainExports(ctx.deps);
      const files = await get(ctx, sub, '/api/report/file/list', { page: 0, size: 10 });
      expect(files.body.data.content.find((x: any) => x.id === q.body.data.id)).toMatchObject({ status: 'ready', rowCount: 0 });
    });
  });
});
