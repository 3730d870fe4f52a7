/** The dashboard's cash calendar: known transfers, projected transfers and reserve releases per day. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm, type CashCalendar, type ReserveRow, type TransferRow } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addDays } from '../payments/time';
import { settleRange } from '../payments/settlement/settle.run';
import { generateReportData } from './report.fixtures';
import { isTransferDay } from './calendar.service';
import { bump, fetchAll, get, minor } from './report.test-utils';

const FROM = '2026-09-01';
const DAYS = 20;
const TODAY = addDays(FROM, DAYS + 2);
const END = addDays(TODAY, 29);

it("knows the run's transfer days", () => {
  expect(isTransferDay('D', '2026-09-26')).toBe(true);
  expect(isTransferDay('W3', '2026-09-23')).toBe(true); // a Wednesday
  expect(isTransferDay('W3', '2026-09-24')).toBe(false);
  expect(isTransferDay('M15', '2026-10-15')).toBe(true);
  expect(isTransferDay('M15', '2026-10-16')).toBe(false);
});

describe.each(DB_KINDS)('GET /api/dashboard/cashCalendar (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await generateReportData(ctx.db, ctx.config.platformTz, { from: FROM, days: DAYS, perDay: 24, seed: 3, settleThrough: addDays(TODAY, -1) });
    ctx.clock.set(`${TODAY}T02:00:00Z`); // 10:00 in Shanghai
    demo = (await ctx.login()).token;
  }, 240_000);
  afterAll(() => ctx?.close());

  it('shows 30 days per currency; releases equal the reserve report; projected transfers are what the run then does', async () => {
    const r = await get<CashCalendar>(ctx, demo, '/api/dashboard/cashCalendar');
    expect(r.body.code).toBe(0);
    const cal = r.body.data;
    expect(cal.from).toBe(TODAY);
    expect(cal.to).toBe(END);
    expect(cal.currencies).toEqual(['CNY', 'HKD', 'USD']);
    expect(cal.days).toHaveLength(30 * 3);
    const sum = (f: 'transfer' | 'projected' | 'release') => {
      const m = new Map<string, number>();
      for (const d of cal.days) if (d[f] !== '0.00') bump(m, `${d.date}|${d.currency}`, minor(d[f], d.currency));
      return m;
    };
    const releases = await fetchAll<ReserveRow>(ctx, demo, '/api/report/reserve/list', { releaseBeginDate: TODAY, releaseEndDate: END });
    const rel = new Map<string, number>();
    for (const x of releases) bump(rel, `${x.releaseDate}|${x.merTxnSet}`, minor(x.releaseAmount, x.merTxnSet));
    expect(sum('release')).toEqual(rel);
    expect(rel.size).toBeGreaterThan(0);
    // The decided transfers one by one: per day and currency they make the day's figure, and each opens its payout proof (issue 49 §1).
    const each = new Map<string, number>();
    for (const x of cal.transfers) bump(each, `${x.remitDate}|${x.currency}`, minor(x.amount, x.currency));
    expect(each).toEqual(sum('transfer'));
    expect(cal.transfers.length).toBeGreaterThan(0);
    for (const x of cal.transfers.slice(0, 3)) {
      const p = await get<{ transfer: { id: string; remitDate: string; amount: string }; balanced: boolean }>(ctx, demo, `/api/trail/transfer/${x.id}/proof`);
      expect(p.body.code, p.body.msg).toBe(0);
      expect(p.body.data.transfer).toMatchObject({ id: x.id, remitDate: x.remitDate, amount: x.amount });
      expect(p.body.data.balanced).toBe(true);
    }
    const expected = sum('transfer');
    for (const [k, v] of sum('projected')) bump(expected, k, v);
    expect([...sum('projected').values()].some((v) => v > 0)).toBe(true);

    // No new transactions: running the settlement forward must transfer exactly what was projected.
    await settleRange(ctx.db, TODAY, END);
    const after = await fetchAll<TransferRow>(ctx, demo, '/api/report/transfer/list', {
      beginDate: addDays(TODAY, -5),
      endDate: END,
      remitBeginDate: TODAY,
      remitEndDate: END,
    });
    const real = new Map<string, number>();
    for (const t of after) bump(real, `${t.remitDate}|${t.merTxnSet}`, minor(t.realTransAmount, t.merTxnSet));
    expect(expected).toEqual(real);
  });

  it('is scoped, needs the dashboard permission and checks its input', async () => {
    const sub = (await ctx.login(DEMO.users.sub)).token;
    const mine = await get<CashCalendar>(ctx, sub, '/api/dashboard/cashCalendar', { days: 10 });
    expect(mine.body.data.currencies).toEqual(['CNY']);
    expect(mine.body.data.days).toHaveLength(10);
    expect(mine.body.data.transfers.every((x) => x.merId === DEMO.subA)).toBe(true);
    const other = (await ctx.login(DEMO.users.other)).token;
    const none = await get<CashCalendar>(ctx, other, '/api/dashboard/cashCalendar', { merId: DEMO.group });
    expect(none.body.data).toMatchObject({ currencies: [], days: [], transfers: [] });
    for (const days of [0, 91, 'x']) expect((await get(ctx, demo, '/api/dashboard/cashCalendar', { days })).status).toBe(400);
    await ctx.db.query('UPDATE app_user SET permissions = array_remove(permissions, $2) WHERE username = $1', [DEMO.users.sub, Perm.dashboard]);
    expect((await get(ctx, sub, '/api/dashboard/cashCalendar')).body.code).toBe(403);
  });
});
