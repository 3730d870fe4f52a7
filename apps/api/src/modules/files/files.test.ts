import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, toMinor, type MerchantDocument, type TransferRow } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { pdfText } from '../../../test/pdf-text';
import { TestClock } from '../../lib/clock';
import { createJobRunner } from '../../jobs/runner';
import { generateReportData } from '../report/report.fixtures';
import { fetchAll } from '../report/report.test-utils';
import { ensureStatementSchedule, monthlyStatementJob, publishDueStatements, publishMonth, STATEMENT_JOB } from './documents.service';
import { manifest } from '.';
import type { MonthlyStatement } from './statement.service';

const quiet = { info: () => undefined, error: () => undefined };
const TZ = 'Asia/Shanghai';

describe.each(DB_KINDS)('published documents (/files) on %s', (kind) => {
  let ctx: TestCtx;
  const tokens: Record<string, string> = {};
  const clock = new TestClock(new Date('2026-03-14T15:30:00Z')); // 2026-03-14 23:30 in Shanghai
  let runner: ReturnType<typeof createJobRunner>;
  beforeAll(async () => {
    ctx = await createTestApp({ kind, config: { platformTz: TZ } });
    await generateReportData(ctx.db, TZ, { from: '2026-02-20', days: 25, perDay: 10, seed: 7, settleThrough: '2026-04-02' });
    await ctx.db.query(`UPDATE app_user SET permissions = array_remove(permissions, 'files:download') WHERE username = $1`, [DEMO.users.sub]);
    for (const u of Object.values(DEMO.users)) tokens[u] = (await ctx.login(u)).token;
    runner = createJobRunner({ db: ctx.db, clock, log: quiet, handlers: { [STATEMENT_JOB]: monthlyStatementJob(ctx.config.dataDir, TZ) }, workerId: 't' });
  }, 300_000);
  afterAll(() => ctx?.close());

  const get = (url: string, user: string = DEMO.users.demo, lang = 'en') =>
    ctx.call<{ content: MerchantDocument[]; totalElements: number }>({ method: 'GET', url, headers: { 'x-token': tokens[user], 'accept-language': lang } });
  const raw = (url: string, user: string = DEMO.users.demo, lang = 'en') => ctx.app.inject({ method: 'GET', url, headers: { 'x-token': tokens[user], 'accept-language': lang } });
  const count = async (period: string) => (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM merchant_document WHERE kind = 'MONTHLY_STATEMENT' AND period = $1`, [period])).rows[0].n;
  const data = async (merId: string, cur: string, period: string) =>
    (await ctx.db.query<{ data: MonthlyStatement }>(`SELECT data FROM merchant_document WHERE mer_id = $1 AND currency = $2 AND period = $3 AND lang = 'en' AND format = 'pdf'`, [merId, cur, period]))
      .rows[0]?.data;

  it('month end: the job publishes last month once (PDF and CSV in four languages), missed months caught up, never twice', async () => {
    await ensureStatementSchedule(ctx.db, clock);
    expect(await runner.tick()).toBe(1);
    const feb = await count('2026-02');
    const pairs = (await ctx.db.query<{ n: number }>(`SELECT count(DISTINCT (mer_id, set_cur))::int AS n FROM settlement WHERE txn_set_date <= '2026-02-28'`)).rows[0].n;
    expect(feb).toBe(pairs * 8);
    expect(await count('2026-03')).toBe(0);
    // Not due again before the next 1st; a forced re-run and two processes at once add nothing.
    expect(await runner.tick()).toBe(0);
    await Promise.all([publishMonth(ctx.db, ctx.config.dataDir, TZ, '2026-02', clock.now()), publishMonth(ctx.db, ctx.config.dataDir, TZ, '2026-02', clock.now())]);
    await ctx.db.exec(`DELETE FROM merchant_document WHERE period = '2026-02' AND lang = 'ko'`);
    await Promise.all([publishMonth(ctx.db, ctx.config.dataDir, TZ, '2026-02', clock.now()), publishMonth(ctx.db, ctx.config.dataDir, TZ, '2026-02', clock.now())]);
    expect(await count('2026-02')).toBe(feb);
    // 2026-04-01 00:59 Shanghai: not yet; 01:00: March appears.
    clock.set('2026-03-31T16:59:00Z');
    expect(await runner.tick()).toBe(0);
    clock.set('2026-03-31T17:00:00Z');
    expect(await runner.tick()).toBe(1);
    expect(await count('2026-03')).toBeGreaterThan(0);
    expect(await count('2026-02')).toBe(feb);
    const job = (await ctx.db.query<{ run_at: Date; n: number }>(`SELECT run_at, (SELECT count(*)::int FROM job WHERE kind = $1) AS n FROM job WHERE kind = $1`, [STATEMENT_JOB])).rows[0];
    expect(job.n).toBe(1);
    expect(new Date(job.run_at).toISOString()).toBe('2026-04-30T17:00:00.000Z');
  }, 300_000);

  it("the demo's first start publishes the due statements (the manifest's afterSeed, in the preparation process): the job then finds none left", async () => {
    const march = await count('2026-03');
    expect(march).toBeGreaterThan(0);
    await ctx.db.exec(`DELETE FROM merchant_document WHERE period = '2026-03'`);
    await manifest.afterSeed!({ ...ctx.deps, clock });
    expect(await count('2026-03')).toBe(march);
    const { added } = await publishDueStatements(ctx.db, ctx.config.dataDir, TZ, clock.now());
    expect(added).toBe(0);
  }, 120_000);

  it('rolls forward (I7) and chains month to month; the figures equal the transfer report rows of the month', async () => {
    const transfer = await fetchAll<TransferRow>(ctx, tokens[DEMO.users.demo], '/api/report/transfer/list', { beginDate: '2026-03-01', endDate: '2026-03-31' });
    expect(transfer.length).toBeGreaterThan(3);
    const keys = new Set(transfer.map((t) => `${t.clientid}|${t.merTxnSet}`));
    for (const k of keys) {
      const [merId, cur] = k.split('|');
      const feb = await data(merId, cur, '2026-02');
      const mar = (await data(merId, cur, '2026-03'))!;
      expect(mar.opening + mar.settled - mar.fees - mar.withheld + mar.released - mar.transferred).toBe(mar.closing);
      expect(mar.opening).toBe(feb?.closing ?? 0);
      const rows = transfer.filter((t) => t.clientid === merId && t.merTxnSet === cur);
      const sum = (f: keyof TransferRow) => rows.reduce((s, r) => s + toMinor(String(r[f]), cur), 0);
      expect(mar.settled - mar.fees).toBe(sum('reconSetAmount'));
      expect(mar.withheld).toBe(sum('servAmount'));
      expect(mar.released).toBe(sum('releasedAmount'));
      expect(mar.transferred).toBe(sum('realTransAmountBeforeTransFee'));
      expect(mar.transferFees).toBe(sum('tranFee'));
    }
  });

  it("lists the caller's documents in the caller's language with filters and paging", async () => {
    const all = await get('/api/files/list?kind=MONTHLY_STATEMENT&size=100');
    expect(all.status).toBe(200);
    const docs = all.body.data.content;
    expect(docs.length).toBeGreaterThan(0);
    expect(new Set(docs.map((d) => d.merId)).has(DEMO.other)).toBe(false);
    expect(docs.every((d) => d.fileName.startsWith('Monthly statement_'))).toBe(true);
    expect(docs.every((d) => d.kind === 'MONTHLY_STATEMENT' && d.closing !== null)).toBe(true);
    const zh = (await get('/api/files/list?kind=MONTHLY_STATEMENT&size=100', DEMO.users.demo, 'zh')).body.data;
    expect(zh.totalElements).toBe(all.body.data.totalElements);
    expect(zh.content[0].fileName).toMatch(/^月度对账单_/);
    const mar = (await get('/api/files/list?kind=MONTHLY_STATEMENT&periodFrom=2026-03&periodTo=2026-03&size=100')).body.data;
    expect(mar.content.every((d) => d.period === '2026-03')).toBe(true);
    expect(mar.totalElements).toBeLessThan(all.body.data.totalElements);
    const cur = docs[0].currency!;
    expect((await get(`/api/files/list?currency=${cur}&size=100`)).body.data.content.every((d) => d.currency === cur)).toBe(true);
    const page1 = (await get('/api/files/list?kind=MONTHLY_STATEMENT&size=5&page=1')).body.data;
    expect(page1.content.map((d) => d.id)).toEqual(docs.slice(5, 10).map((d) => d.id));
  });

  it('issues the fee schedule on request, once per change', async () => {
    const list = async () => (await get('/api/files/list?kind=FEE_SCHEDULE&size=100')).body.data.content;
    const first = await list();
    expect(new Set(first.map((d) => d.merId))).toEqual(new Set([DEMO.group, DEMO.subA, DEMO.subB]));
    expect(first.every((d) => d.format === 'pdf' && d.closing === null)).toBe(true);
    expect((await list()).map((d) => d.id)).toEqual(first.map((d) => d.id));
    const text = await pdfText((await raw(`/api/files/download/${first.find((d) => d.merId === DEMO.group)!.id}`)).rawPayload);
    expect(text).toContain('Fee schedule');
    expect(text).toContain('3.00');
    ctx.clock.advance(86_400_000);
    for (const u of Object.values(DEMO.users)) tokens[u] = (await ctx.login(u)).token;
    await ctx.db.query(`UPDATE merchant_fee SET mdr_bp = 275 WHERE mer_id = $1 AND bus_line = 'CARD'`, [DEMO.group]);
    const second = await list();
    expect(second.filter((d) => d.merId === DEMO.group)).toHaveLength(2);
    expect(second.filter((d) => d.merId === DEMO.subA)).toHaveLength(1);
  });

  it('downloads a statement: PDF text and CSV carry the closing balance; no-store; RFC 6266 name', async () => {
    const docs = (await get('/api/files/list?kind=MONTHLY_STATEMENT&periodFrom=2026-03&size=100', DEMO.users.demo, 'zh')).body.data.content;
    const pdf = docs.find((d) => d.format === 'pdf')!;
    const res = await raw(`/api/files/download/${pdf.id}`, DEMO.users.demo, 'zh');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(pdf.fileName)}`);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('月度对账单');
    expect(text).toContain(formatMoney(toMinor(pdf.closing!, pdf.currency!), pdf.currency!, 'zh'));
    const csv = docs.find((d) => d.format === 'csv' && d.merId === pdf.merId && d.currency === pdf.currency)!;
    const c = await raw(`/api/files/download/${csv.id}`, DEMO.users.demo, 'zh');
    expect(c.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(c.body).toMatch(new RegExp(`期末待付余额,${csv.closing!.replace('.', '\\.')}\\r\\n`));
    // Issue 53: the zone of its dates stated, the transaction types in words (no raw codes).
    expect(c.body).toContain('时区,UTC+8（Asia/Shanghai）');
    const settledLines = c.body.split('\r\n').filter((line: string) => line.startsWith('结算：'));
    expect(settledLines.length).toBeGreaterThan(0);
    for (const line of settledLines) expect(line, line).not.toMatch(/结算：[A-Z_]+,/);
  });

  it("refuses bad input, a user without the permission, and another merchant's document (404)", async () => {
    for (const q of ['kind=OTHER', 'periodFrom=2026-13', 'periodFrom=2026-04&periodTo=2026-03', 'currency=usd', 'size=7', 'page=-1']) {
      const r = await get(`/api/files/list?${q}`);
      expect(r.status, q).toBe(400);
    }
    expect((await raw('/api/files/download/abc')).statusCode).toBe(400);
    expect((await raw('/api/files/download/0')).statusCode).toBe(400);
    expect((await raw('/api/files/download/2147483647')).statusCode).toBe(404);
    const sub = await get('/api/files/list', DEMO.users.sub);
    expect(sub.status).toBe(403);
    const mine = (await get('/api/files/list?size=5')).body.data.content[0];
    expect((await raw(`/api/files/download/${mine.id}`, DEMO.users.sub)).statusCode).toBe(403);
    const other = await raw(`/api/files/download/${mine.id}`, DEMO.users.other);
    expect(other.statusCode).toBe(404);
    const theirs = (await get('/api/files/list?size=100', DEMO.users.other)).body.data.content;
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((d) => d.merId === DEMO.other)).toBe(true);
    expect((await raw(`/api/files/download/${theirs[0].id}`)).statusCode).toBe(404);
  });
});
