/**
 * Property: whatever the fee schedules (reserve rate and hold, threshold, transfer fee, period,
 * cycle), the seed and the period generated, the reports read through the API reconcile (I1–I4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { BillRow, ReserveRow, SummaryRow, TransferRow } from '@portal/contract';
import { createTestApp, DEMO, type TestCtx } from '../../../test/helpers';
import { addDays } from '../payments/time';
import { FEES, generateReportData, type FeeRow } from './report.fixtures';
import { bump, fetchAll, get, minor } from './report.test-utils';

const feeArb = (mer: string, line: string): fc.Arbitrary<FeeRow> =>
  fc
    .record({
      mdr: fc.integer({ min: 0, max: 400 }),
      fixed: fc.constantFrom(0, 30, 200),
      cycle: fc.constantFrom(0, 1, 2, 3),
      reserve: fc.constantFrom(0, 300, 1000, 2500),
      hold: fc.integer({ min: 1, max: 12 }),
      threshold: fc.constantFrom(0, 5000, 100000),
      tranFee: fc.constantFrom(0, 500, 2500),
      period: fc.constantFrom('D', 'W1', 'W3', 'W5', 'M1', 'M15'),
    })
    .map((f) => [mer, line, f.mdr, f.fixed, f.cycle, f.reserve, f.hold, f.threshold, f.tranFee, f.period]);

const key = (r: { clientid: string; reconBusiness: string; merTxnSet: string }) => `${r.clientid}|${r.reconBusiness}|${r.merTxnSet}`;

describe('report invariants over random fee schedules (pglite)', () => {
  let ctx: TestCtx;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    ({ token } = await ctx.login());
  }, 120_000);
  afterAll(() => ctx?.close());

  it('I1–I4 hold through the API', async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(...FEES.map(([m, l]) => feeArb(m, l))), fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 27 }), async (fees, seed, offset) => {
        await ctx.db.query('TRUNCATE settlement, settlement_summary, reserve, settlement_run, merchant_fee, fx_rate, export_file, refund_request, logistics, txn, txn_key CASCADE');
        const from = addDays('2026-05-04', offset);
        await generateReportData(ctx.db, ctx.config.platformTz, { from, days: 24, perDay: 14, seed, fees });
        const range = { beginDate: from, endDate: addDays(from, 27) };
        const transfer = await fetchAll<TransferRow>(ctx, token, '/api/report/transfer/list', range);
        const bill = await fetchAll<BillRow>(ctx, token, '/api/report/bill/list', range);
        const summary = await fetchAll<SummaryRow>(ctx, token, '/api/report/txn/newList', range);
        const reserve = await fetchAll<ReserveRow>(ctx, token, '/api/report/reserve/list', { beginDate: range.beginDate, endDate: range.endDate });
        // I1 on transfers: the settle list behind each one, and the amount before fee.
        for (const r of transfer.filter((x) => x.remitDate)) {
          const c = r.merTxnSet;
          const inRange = transfer.filter((x) => key(x) === key(r) && x.txnSetDate >= r.reconSearchDate && x.txnSetDate <= r.txnSetDate);
          const recon = inRange.reduce((s, x) => s + minor(x.reconSetAmount, c), 0);
          const res = await get(ctx, token, '/api/txn/settleList', { beginDate: r.reconSearchDate, endDate: r.txnSetDate, busLine: r.reconBusiness, setCur: c, clientid: r.clientid, size: 5 });
          expect(minor(res.body.data.sum.net, c)).toBe(recon);
          const heldMinusReleased = inRange.reduce((s, x) => s + minor(x.servAmount, c) - minor(x.releasedAmount, c), 0);
          expect(minor(r.realTransAmountBeforeTransFee, c)).toBe(recon - heldMinusReleased);
          expect(minor(r.realTransAmount, c)).toBeGreaterThanOrEqual(0);
        }
        // I2: summary (transaction types) = bill, per merchant, day and currency.
        const sum = new Map<string, number>();
        for (const s of summary) if (!s.txnType.startsWith('M-DEPOSIT')) bump(sum, `${s.clientid}|${s.txnSetDate}|${s.merTxnSet}`, minor(s.txnSetAmount, s.merTxnSet) - minor(s.txnFee, s.merTxnSet));
        const billSum = new Map<string, number>();
        for (const b of bill) bump(billSum, `${b.clientid}|${b.txnSetDate}|${b.merTxnSet}`, minor(b.reconSetAmount, b.merTxnSet));
        for (const k of new Set([...sum.keys(), ...billSum.keys()])) expect(sum.get(k) ?? 0).toBe(billSum.get(k) ?? 0);
        // I3: the roll-forward.
        const sorted = [...bill].sort((a, b) => (key(a) + a.txnSetDate).localeCompare(key(b) + b.txnSetDate));
        const byDay = new Map(transfer.map((t) => [`${key(t)}|${t.txnSetDate}`, t]));
        sorted.forEach((r, i) => {
          const c = r.merTxnSet;
          const prev = i > 0 && key(sorted[i - 1]) === key(r) ? minor(sorted[i - 1].totalPendingAmount, c) : 0;
          expect(minor(r.historyPendingAmount, c)).toBe(prev);
          const t = byDay.get(`${key(r)}|${r.txnSetDate}`)!;
          const net = minor(t.reconSetAmount, c) - minor(t.servAmount, c) + minor(t.releasedAmount, c);
          expect(minor(r.transAmount, c) + minor(r.totalPendingAmount, c)).toBe(prev + net);
        });
        // I4: outstanding reserve per merchant and currency never negative, day by day.
        const events = reserve
          .flatMap((r) => [
            { d: r.txnSetDate, k: `${r.clientid}|${r.merTxnSet}`, v: minor(r.releaseAmount, r.merTxnSet) },
            ...(r.released ? [{ d: r.releaseDate, k: `${r.clientid}|${r.merTxnSet}`, v: -minor(r.releaseAmount, r.merTxnSet) }] : []),
          ])
          .sort((a, b) => a.d.localeCompare(b.d) || b.v - a.v);
        const bal = new Map<string, number>();
        for (const e of events) {
          bump(bal, e.k, e.v);
          expect(bal.get(e.k)).toBeGreaterThanOrEqual(0);
        }
        expect(transfer.length).toBeGreaterThan(0);
        expect(transfer.every((t) => ([DEMO.group, DEMO.subA, DEMO.subB] as string[]).includes(t.clientid))).toBe(true);
      }),
      { numRuns: 4 },
    );
  }, 600_000);
});
