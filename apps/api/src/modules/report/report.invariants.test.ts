/**
 * The heart of the reports: every figure comes from the settlement run and reconciles (domain.md
 * I1–I4), checked THROUGH THE API over generated transactions, on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exponentOf, type BillRow, type ReserveRow, type SummaryRow, type TransferRow } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addDays } from '../payments/time';
import { generateReportData } from './report.fixtures';
import { bump, fetchAll, get, minor } from './report.test-utils';

const FROM = '2026-08-03';
const DAYS = 45;
const LAST_SETTLED = addDays(FROM, DAYS + 1);
const range = { beginDate: addDays(FROM, 1), endDate: LAST_SETTLED };
const keyOf = (r: { clientid: string; reconBusiness: string; merTxnSet: string }) => `${r.clientid}|${r.reconBusiness}|${r.merTxnSet}`;

describe.each(DB_KINDS)('report invariants through the API (%s)', (kind) => {
  let ctx: TestCtx;
  let token: string;
  let bill: BillRow[];
  let transfer: TransferRow[];
  let summary: SummaryRow[];
  let old: SummaryRow[];
  let reserve: ReserveRow[];

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const gen = await generateReportData(ctx.db, ctx.config.platformTz, { from: FROM, days: DAYS, perDay: 30, seed: 7 });
    expect(gen.txns).toBe(DAYS * 30);
    ({ token } = await ctx.login());
    bill = await fetchAll(ctx, token, '/api/report/bill/list', range);
    transfer = await fetchAll(ctx, token, '/api/report/transfer/list', range);
    summary = await fetchAll(ctx, token, '/api/report/txn/newList', range);
    old = await fetchAll(ctx, token, '/api/report/txn/list', range);
    reserve = await fetchAll(ctx, token, '/api/report/reserve/list', { releaseBeginDate: range.beginDate, releaseEndDate: addDays(range.endDate, 30) });
  }, 240_000);
  afterAll(() => ctx?.close());

  it('has data of every kind, only from the group and its sub-merchants', () => {
    expect(bill.length).toBeGreaterThan(50);
    expect(transfer.length).toBe(bill.length);
    expect(summary.length).toBeGreaterThan(old.length);
    expect(reserve.length).toBeGreaterThan(10);
    expect(transfer.some((r) => r.remitDate)).toBe(true);
    // A carried row transfers nothing; a transfer row has its remittance date.
    for (const r of transfer) expect(minor(r.realTransAmountBeforeTransFee, r.merTxnSet) > 0).toBe(r.remitDate !== null);
    for (const rows of [bill, transfer, summary, old, reserve]) {
      expect(new Set(rows.map((r) => r.clientid))).toEqual(new Set([DEMO.group, DEMO.subA, DEMO.subB]));
    }
  });

  it('shows every amount in its currency exponent', () => {
    const check = (v: string, cur: string) => {
      const e = exponentOf(cur);
      expect(v, `${v} ${cur}`).toMatch(e ? new RegExp(`^-?\\d+\\.\\d{${e}}$`) : /^-?\d+$/);
    };
    for (const r of bill) for (const v of [r.reconSetAmount, r.historyPendingAmount, r.totalPendingAmount, r.transAmount]) check(v, r.merTxnSet);
    for (const r of summary) {
      check(r.merTxnAmount, r.merTxnCur);
      for (const v of [r.merMDRAmount, r.txnSetAmount, r.txnFee]) check(v, r.merTxnSet);
    }
    expect(summary.some((r) => r.merTxnCur === 'JPY' || r.merTxnCur === 'KRW')).toBe(true);
  });

  it('I1: a transfer row equals the sum of its settle list; a transfer is that sum − held + released', async () => {
    const byKey = new Map<string, TransferRow[]>();
    for (const r of transfer) byKey.set(keyOf(r), [...(byKey.get(keyOf(r)) ?? []), r]);
    let transfers = 0;
    for (const r of transfer) {
      const cur = r.merTxnSet;
      const inRange = byKey.get(keyOf(r))!.filter((x) => x.txnSetDate >= r.reconSearchDate && x.txnSetDate <= r.txnSetDate);
      const recon = inRange.reduce((s, x) => s + minor(x.reconSetAmount, cur), 0);
      const res = await get(ctx, token, '/api/txn/settleList', {
        beginDate: r.reconSearchDate,
        endDate: r.txnSetDate,
        busLine: r.reconBusiness,
        setCur: cur,
        clientid: r.clientid,
        page: 0,
        size: 5,
      });
      expect(res.body.code).toBe(0);
      expect(minor(res.body.data.sum.net, cur), `${keyOf(r)} ${r.reconSearchDate}..${r.txnSetDate}`).toBe(recon);
      if (r.remitDate) {
        transfers++;
        const held = inRange.reduce((s, x) => s + minor(x.servAmount, cur), 0);
        const released = inRange.reduce((s, x) => s + minor(x.releasedAmount, cur), 0);
        expect(minor(r.realTransAmountBeforeTransFee, cur)).toBe(recon - held + released);
        // I6 beside it: net = before fee − fee, never negative.
        expect(minor(r.realTransAmount, cur)).toBe(minor(r.realTransAmountBeforeTransFee, cur) - minor(r.tranFee, cur));
        expect(minor(r.realTransAmount, cur)).toBeGreaterThanOrEqual(0);
      }
    }
    expect(transfers).toBeGreaterThan(10);
  }, 240_000);

  it('I2: the summary rows of a day sum to the bill rows; M-DEPOSIT rows equal reserve held and released', () => {
    const txnNet = new Map<string, number>();
    const deposit = new Map<string, number>();
    const depositRelease = new Map<string, number>();
    for (const s of summary) {
      const k = `${s.clientid}|${s.txnSetDate}|${s.merTxnSet}`;
      if (s.txnType === 'M-DEPOSIT') bump(deposit, k, -minor(s.txnSetAmount, s.merTxnSet));
      else if (s.txnType === 'M-DEPOSIT-RELEASE') bump(depositRelease, k, minor(s.txnSetAmount, s.merTxnSet));
      else bump(txnNet, k, minor(s.txnSetAmount, s.merTxnSet) - minor(s.txnFee, s.merTxnSet));
    }
    const recon = new Map<string, number>();
    const held = new Map<string, number>();
    const released = new Map<string, number>();
    for (const t of transfer) {
      const k = `${t.clientid}|${t.txnSetDate}|${t.merTxnSet}`;
      bump(recon, k, minor(t.reconSetAmount, t.merTxnSet));
      bump(held, k, minor(t.servAmount, t.merTxnSet));
      bump(released, k, minor(t.releasedAmount, t.merTxnSet));
    }
    for (const [k, v] of recon) expect(txnNet.get(k) ?? 0, k).toBe(v);
    for (const [k, v] of txnNet) expect(recon.get(k) ?? 0, k).toBe(v);
    for (const [k, v] of held) expect(deposit.get(k) ?? 0, `held ${k}`).toBe(v);
    for (const [k, v] of released) expect(depositRelease.get(k) ?? 0, `released ${k}`).toBe(v);
    expect([...held.values()].some((v) => v > 0)).toBe(true);
  });

  it('the old version is the upgraded one summed over brands, without a brand column', () => {
    const sum = (rows: SummaryRow[]) => {
      const m = new Map<string, number>();
      for (const r of rows) {
        const k = `${r.txnSetDate}|${r.clientid}|${r.txnType}|${r.merTxnCur}|${r.merTxnSet}|${r.instCodeBriefName}`;
        bump(m, `${k}|count`, r.txnCount);
        bump(m, `${k}|amount`, minor(r.merTxnAmount, r.merTxnCur));
        bump(m, `${k}|settle`, minor(r.txnSetAmount, r.merTxnSet));
        bump(m, `${k}|fee`, minor(r.txnFee, r.merTxnSet));
      }
      return m;
    };
    expect(sum(old)).toEqual(sum(summary));
    expect(old.length).toBeGreaterThan(0);
    expect(summary.length).toBeGreaterThan(0);
    expect(old.every((r) => !('paymentBrand' in r))).toBe(true);
    expect(summary.every((r) => typeof r.paymentBrand === 'string')).toBe(true);
  });

  it('I3: pending rolls forward and transfer + pending = history + net', () => {
    const net = new Map(transfer.map((t) => [`${keyOf(t)}|${t.txnSetDate}`, minor(t.reconSetAmount, t.merTxnSet) - minor(t.servAmount, t.merTxnSet) + minor(t.releasedAmount, t.merTxnSet)]));
    const sorted = [...bill].sort((a, b) => (keyOf(a) + a.txnSetDate).localeCompare(keyOf(b) + b.txnSetDate));
    let prev: BillRow | undefined;
    for (const r of sorted) {
      const cur = r.merTxnSet;
      const history = minor(r.historyPendingAmount, cur);
      expect(history, `${keyOf(r)} ${r.txnSetDate}`).toBe(prev && keyOf(prev) === keyOf(r) ? minor(prev.totalPendingAmount, cur) : 0);
      expect(minor(r.transAmount, cur) + minor(r.totalPendingAmount, cur)).toBe(history + net.get(`${keyOf(r)}|${r.txnSetDate}`)!);
      prev = r;
    }
  });

  it('I4: reserves held − released is never negative; each reserve row ties to its settlement row', () => {
    const outstanding = new Map<string, number>();
    const heldByDay = new Map<string, number>();
    for (const r of reserve) {
      const amt = minor(r.releaseAmount, r.merTxnSet);
      expect(amt).toBeGreaterThan(0);
      bump(outstanding, `${r.clientid}|${r.merTxnSet}`, r.released ? 0 : amt);
      bump(heldByDay, `${r.clientid}|${r.business}|${r.merTxnSet}|${r.txnSetDate}`, amt);
      expect(r.released).toBe(r.releaseDate <= LAST_SETTLED);
      expect(r.releaseDate > r.txnSetDate).toBe(true);
      if (r.transferDate) expect(r.transferDate >= r.releaseDate).toBe(true);
    }
    for (const v of outstanding.values()) expect(v).toBeGreaterThanOrEqual(0);
    for (const t of transfer) {
      const held = minor(t.servAmount, t.merTxnSet);
      if (held > 0) expect(heldByDay.get(`${keyOf(t)}|${t.txnSetDate}`), `${keyOf(t)} ${t.txnSetDate}`).toBe(held);
    }
    // Cumulative per merchant and currency, day by day: released never runs ahead of held.
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
  });

  it('a sub-merchant user and another merchant see only their own rows', async () => {
    const sub = (await ctx.login(DEMO.users.sub)).token;
    const subBill = await fetchAll<BillRow>(ctx, sub, '/api/report/bill/list', range);
    expect(subBill.length).toBe(bill.filter((r) => r.clientid === DEMO.subA).length);
    expect(subBill.length).toBeGreaterThan(0);
    expect(subBill.every((r) => r.clientid === DEMO.subA)).toBe(true);
    const other = (await ctx.login(DEMO.users.other)).token;
    const otherRows = await fetchAll<TransferRow>(ctx, other, '/api/report/transfer/list', range);
    expect(otherRows.length).toBeGreaterThan(0);
    expect(otherRows.every((r) => r.clientid === DEMO.other)).toBe(true);
  });
});
