/** Paging and keyset walking of the report listings; the three-month rule. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceedsThreeMonths, isCalendarDate } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addDays } from '../payments/time';
import { generateReportData } from './report.fixtures';
import { countRows, iterateRows, listPage } from './report.query';
import { reserveListing, settlementListing, summaryListing } from './report.repo';
import { periodLabel } from './report.labels';

describe('three-month rule and dates', () => {
  it('allows up to three months (93 days, as the transaction list and the shared picker)', () => {
    expect(exceedsThreeMonths('2026-01-01', '2026-04-04')).toBe(false);
    expect(exceedsThreeMonths('2026-01-01', '2026-04-05')).toBe(true);
    expect(exceedsThreeMonths('2026-05-01', '2026-08-02')).toBe(false);
    expect(exceedsThreeMonths('2026-05-01', '2026-08-03')).toBe(true);
  });
  it('accepts only real yyyy-MM-dd dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    for (const s of ['2026-02-29', '2026-13-01', '2026-1-01', '2026/01/01', '2026-01-01 00:00:00']) expect(isCalendarDate(s)).toBe(false);
  });
  it('names transfer periods', () => {
    expect(periodLabel('D', 'en')).toBe('Daily');
    expect(periodLabel('W3', 'en')).toBe('Weekly (Wednesday)');
    expect(periodLabel('M15', 'zh')).toBe('每月（15日）');
  });
});

describe.each(DB_KINDS)('listings (%s)', (kind) => {
  let ctx: TestCtx;
  const FROM = '2026-03-02';
  const range = { begin: addDays(FROM, 1), end: addDays(FROM, 12) };
  const scope = [DEMO.group, DEMO.subA, DEMO.subB];

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await generateReportData(ctx.db, ctx.config.platformTz, { from: FROM, days: 10, perDay: 20, seed: 9 });
  }, 240_000);
  afterAll(() => ctx?.close());

  it('walks every listing by keyset in list order, in any batch size', async () => {
    for (const l of [
      settlementListing(scope, range),
      summaryListing(scope, { settlement: range }, true),
      summaryListing(scope, { settlement: range }, false),
      reserveListing(scope, { release: { begin: range.begin, end: addDays(range.end, 20) } }),
    ]) {
      const n = await countRows(ctx.db, l);
      expect(n).toBeGreaterThan(7);
      const all = await listPage(ctx.db, l, 0, 100);
      expect(all).toHaveLength(Math.min(n, 100));
      const walked: unknown[] = [];
      for await (const b of iterateRows(ctx.db, l, 7)) walked.push(...b);
      expect(walked.slice(0, 100)).toEqual(all);
      expect(walked).toHaveLength(n);
    }
  });

  it('reads nothing for an empty scope', async () => {
    expect(await countRows(ctx.db, settlementListing([], range))).toBe(0);
  });
});
