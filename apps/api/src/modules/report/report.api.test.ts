/** Each report endpoint: success, paging, filters, bad input, missing permission, another merchant. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addDays } from '../payments/time';
import { generateReportData } from './report.fixtures';
import { fetchAll, get } from './report.test-utils';

const FROM = '2026-09-01';
const DAYS = 20;
const R = { beginDate: addDays(FROM, 1), endDate: addDays(FROM, DAYS + 1) };
const RESERVE = { releaseBeginDate: R.beginDate, releaseEndDate: addDays(R.endDate, 20) };

/** The ten report calls: list path, permission, a query that has rows. */
const LISTS = [
  { path: 'bill/list', perm: Perm.reportBill, q: R },
  { path: 'transfer/list', perm: Perm.reportTransfer, q: R },
  { path: 'txn/newList', perm: Perm.reportTxn, q: R },
  { path: 'txn/list', perm: Perm.reportTxn, q: R },
  { path: 'reserve/list', perm: Perm.reportReserve, q: RESERVE },
] as const;

describe.each(DB_KINDS)('report endpoints (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  let other: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await generateReportData(ctx.db, ctx.config.platformTz, { from: FROM, days: DAYS, perDay: 24, seed: 11 });
    demo = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  }, 240_000);
  afterAll(() => ctx?.close());

  describe.each(LISTS)('GET /api/report/$path', ({ path, perm, q }) => {
    const url = `/api/report/${path}`;

    it("answers a 0-based page of the caller's rows with the total", async () => {
      const p0 = await get(ctx, demo, url, { ...q, page: 0, size: 5 });
      expect(p0.body.code).toBe(0);
      expect(p0.body.data.content).toHaveLength(5);
      expect(p0.body.data.totalElements).toBeGreaterThan(5);
      const p1 = await get(ctx, demo, url, { ...q, page: 1, size: 5 });
      expect(p1.body.data.content).toHaveLength(5);
      expect(p1.body.data.content[0]).not.toEqual(p0.body.data.content[0]);
      const all = await fetchAll(ctx, demo, url, q);
      expect(all.slice(5, 10)).toEqual(p1.body.data.content);
      for (const size of [10, 30, 50, 100]) expect((await get(ctx, demo, url, { ...q, size })).body.code).toBe(0);
    });

    it('refuses bad input: page size, date format, inverted and over-three-month ranges', async () => {
      const [b, e] = path === 'reserve/list' ? ['releaseBeginDate', 'releaseEndDate'] : ['beginDate', 'endDate'];
      const base = { ...q };
      for (const bad of [
        { ...base, size: 7 },
        { ...base, page: -1 },
        { ...base, [b]: '2026/09/01' },
        { ...base, [b]: '2026-02-30' },
        { ...base, [b]: q[e as keyof typeof q], [e]: q[b as keyof typeof q] },
        { ...base, [b]: undefined },
        { ...base, merId: '12345' },
      ]) {
        const r = await get(ctx, demo, url, bad);
        expect(r.status, JSON.stringify(bad)).toBe(400);
        expect(r.body.code).toBe(400);
      }
      const long = await get(ctx, demo, url, { ...base, [b]: '2026-05-01', [e]: '2026-08-03' });
      expect(long.body.msg).toBe('The selected time range cannot exceed three months');
      const ok = await get(ctx, demo, url, { ...base, [b]: '2026-05-02', [e]: '2026-08-03' });
      expect(ok.body.code).toBe(0);
      const zh = await ctx.call({ method: 'GET', url: `${url}?${b}=2026-01-01&${e}=2026-06-01`, headers: { 'x-token': demo, 'accept-language': 'zh' } });
      expect(zh.body.msg).toBe('所选时间范围不能超过三个月');
    });

    it('needs its permission (removed in the db) and a signed-in caller', async () => {
      expect((await get(ctx, sub, url, q)).body.code).toBe(0);
      await ctx.db.query('UPDATE app_user SET permissions = array_remove(permissions, $2) WHERE username = $1', [DEMO.users.sub, perm]);
      try {
        const r = await get(ctx, sub, url, q);
        expect(r.status).toBe(403);
        expect(r.body.code).toBe(403);
      } finally {
        await ctx.db.query('UPDATE app_user SET permissions = array_append(permissions, $2) WHERE username = $1', [DEMO.users.sub, perm]);
      }
      expect((await ctx.call({ method: 'GET', url: `${url}?beginDate=${R.beginDate}&endDate=${R.endDate}` })).body.code).toBe(-1);
    });

    it("answers another merchant's data as empty; a sub-merchant user sees only its own", async () => {
      for (const [token, merId] of [
        [demo, DEMO.other],
        [other, DEMO.group],
        [other, DEMO.subA],
        [sub, DEMO.group],
        [sub, DEMO.subB],
      ]) {
        const r = await get(ctx, token, url, { ...q, merId });
        expect(r.body.code).toBe(0);
        expect(r.body.data).toEqual({ content: [], totalElements: 0 });
      }
      const own = await fetchAll(ctx, sub, url, q);
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((x: any) => x.clientid === DEMO.subA)).toBe(true);
      const asked = await fetchAll(ctx, demo, url, { ...q, merId: DEMO.subA });
      expect(asked).toEqual(own);
      const mine = await fetchAll(ctx, other, url, q);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((x: any) => x.clientid === DEMO.other)).toBe(true);
    });
  });

  it('transfer: the remittance range keeps only rows remitted in it', async () => {
    const all = await fetchAll(ctx, demo, '/api/report/transfer/list', R);
    const remit = { remitBeginDate: addDays(FROM, 5), remitEndDate: addDays(FROM, 12) };
    const some = await fetchAll(ctx, demo, '/api/report/transfer/list', { ...R, ...remit });
    expect(some.length).toBeGreaterThan(0);
    expect(some).toEqual(all.filter((r: any) => r.remitDate && r.remitDate >= remit.remitBeginDate && r.remitDate <= remit.remitEndDate));
    expect((await get(ctx, demo, '/api/report/transfer/list', { ...R, remitBeginDate: remit.remitBeginDate })).status).toBe(400);
  });

  it('summary: type and brand filters; the old version ignores the brand filter', async () => {
    const purc = await fetchAll(ctx, demo, '/api/report/txn/newList', { ...R, gwTranType: 'PURC' });
    expect(purc.length).toBeGreaterThan(0);
    expect(purc.every((r: any) => r.txnType === 'PURC')).toBe(true);
    const dep = await fetchAll(ctx, demo, '/api/report/txn/newList', { ...R, gwTranType: 'M-DEPOSIT' });
    expect(dep.length).toBeGreaterThan(0);
    expect(dep.every((r: any) => r.paymentBrand === '')).toBe(true);
    const brands = await fetchAll(ctx, demo, '/api/report/txn/newList', { ...R, paymentBrand: 'visa,jcb' });
    expect(new Set(brands.map((r: any) => r.paymentBrand))).toEqual(new Set(['visa', 'jcb']));
    const oldAll = await fetchAll(ctx, demo, '/api/report/txn/list', R);
    expect(await fetchAll(ctx, demo, '/api/report/txn/list', { ...R, paymentBrand: 'visa' })).toEqual(oldAll);
    expect((await get(ctx, demo, '/api/report/txn/newList', { ...R, gwTranType: 'PAUT' })).status).toBe(400);
    expect((await get(ctx, demo, '/api/report/txn/newList', { ...R, paymentBrand: 'VISA;drop' })).status).toBe(400);
  });

  it('reserve: settlement, release and remittance ranges each filter; one of them is needed', async () => {
    const all = await fetchAll(ctx, demo, '/api/report/reserve/list', RESERVE);
    const set = { beginDate: addDays(FROM, 3), endDate: addDays(FROM, 9) };
    expect(await fetchAll(ctx, demo, '/api/report/reserve/list', set)).toEqual(all.filter((r: any) => r.txnSetDate >= set.beginDate && r.txnSetDate <= set.endDate));
    const remit = { remitBeginDate: R.beginDate, remitEndDate: R.endDate };
    const byRemit = await fetchAll(ctx, demo, '/api/report/reserve/list', remit);
    expect(byRemit.length).toBeGreaterThan(0);
    expect(byRemit).toEqual(all.filter((r: any) => r.transferDate && r.transferDate >= R.beginDate && r.transferDate <= R.endDate));
    expect(await fetchAll(ctx, demo, '/api/report/reserve/list', { transferBeginDate: R.beginDate, transferEndDate: R.endDate })).toEqual(byRemit);
    const none = await get(ctx, demo, '/api/report/reserve/list', {});
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('Please select the settlement date range');
  });
});
