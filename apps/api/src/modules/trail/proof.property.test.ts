/**
 * Property (issue 49 §1): on generated data — several merchants, transaction currencies converted
 * to the settlement currency, reserves with hold days, thresholds, transfer fees and periods,
 * refunds, manual entries, fee collections, late rows — for EVERY transfer, the proof's lines sum
 * to the amount sent (the transfer report's realTransAmount) and every line's rows sum to the line.
 * Then a mutation of any one source's SQL (its lines or its rows) makes the same check fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, DB_KINDS, type TestCtx } from '../../../test/helpers';
import type { Queryable } from '../../db/db';
import { addDays } from '../payments/time';
import type { Db } from '../../db/db';
import { DEMO } from '../../seed/foundation.seed';
import { ingestBatch } from '../payments/ingest.service';
import type { IngestInput } from '../payments/ingest.types';
import { settleRange } from '../payments/settlement/settle.run';
import { zonedInstant } from '../payments/time';
import { FEES, generateReportData, prng, type FeeRow } from '../report/report.fixtures';

import { PROOF_SOURCES, type ProofSource } from './proof.sources';
import { lineRowTotals, lineRowsRaw, loadTransfer, proofRaw, type TransferKey } from './proof.service';

/*
 * Test data: the reports' generator, then late rows — transactions dated on days already settled,
 * which the next runs settle by the late path on the day they arrive.
 */
interface ProofDataOptions {
  from: string;
  days: number;
  perDay: number;
  seed: number;
  /** Late transactions added after the first settlement runs. */
  late: number;
  fees?: FeeRow[];
}

const LATE_MERCHANTS: [string, string, string, string][] = [
  // merchant, channel, brand, currency
  [DEMO.group, 'CARD', 'visa', 'USD'],
  [DEMO.subA, 'WX', 'wechat_pay', 'CNY'],
  [DEMO.subB, 'CARD', 'mastercard', 'JPY'],
  [DEMO.group, 'UP', 'unionpay', 'HKD'],
  [DEMO.subA, 'UP', 'unionpay', 'CNY'],
];

/** Generated data, settled; then `late` late purchases and refunds and three more days of runs. Returns the last run date. */
async function generateProofData(db: Db, tz: string, o: ProofDataOptions): Promise<string> {
  const { last } = await generateReportData(db, tz, { from: o.from, days: o.days, perDay: o.perDay, seed: o.seed, fees: o.fees });
  const settled = addDays(last, 2);
  const rnd = prng(o.seed + 7);
  const batch: IngestInput[] = [];
  for (let i = 0; i < o.late; i++) {
    const [merId, channel, brand, currency] = LATE_MERCHANTS[i % LATE_MERCHANTS.length];
    const date = addDays(o.from, Math.floor(rnd() * o.days));
    const amount = currency === 'JPY' ? 500 + Math.floor(rnd() * 20000) : 1000 + Math.floor(rnd() * 50000);
    batch.push({
      merId,
      orderNo: `LATE${o.seed}-${i}`,
      currency,
      paymentSchema: channel,
      paymentBrand: brand,
      tranType: 'PURC',
      amount,
      gwResponse: '00',
      txnTime: zonedInstant(date, tz, 9 * 60 + i),
      source: 'generator',
    });
    if (i % 3 === 2) {
      batch.push({
        merId,
        orderNo: `LATE${o.seed}-${i}-R`,
        currency,
        paymentSchema: channel,
        paymentBrand: brand,
        tranType: 'REFD',
        amount: Math.max(1, Math.floor(amount / 3)),
        originOrderNo: `LATE${o.seed}-${i}`,
        gwResponse: '00',
        txnTime: zonedInstant(date, tz, 10 * 60 + i),
        source: 'generator',
      });
    }
  }
  let seq = 0;
  if (batch.length) await db.tx((q) => ingestBatch(q, batch, { platformTz: tz, randomHex: () => `late${o.seed}${(++seq).toString(16).padStart(10, '0')}` }));
  const end = addDays(settled, 3);
  await settleRange(db, addDays(settled, 1), end);
  return end;
}

const feeArb = (mer: string, line: string): fc.Arbitrary<FeeRow> =>
  fc
    .record({
      mdr: fc.integer({ min: 0, max: 400 }),
      fixed: fc.constantFrom(0, 30, 200),
      cycle: fc.constantFrom(1, 2),
      reserve: fc.constantFrom(0, 300, 1000, 2500),
      hold: fc.integer({ min: 0, max: 9 }),
      threshold: fc.constantFrom(0, 5000, 100000),
      tranFee: fc.constantFrom(0, 500, 2500),
      period: fc.constantFrom('D', 'W1', 'W3', 'M15'),
    })
    .map((f) => [mer, line, f.mdr, f.fixed, f.cycle, f.reserve, f.hold, f.threshold, f.tranFee, f.period]);

async function transfers(q: Queryable): Promise<TransferKey[]> {
  const { rows } = await q.query<TransferKey>(
    `SELECT txn_set_date::text AS date, mer_id AS "merId", bus_line AS "busLine", set_cur::text AS "setCur" FROM settlement WHERE trans_amount > 0 ORDER BY 1, 2, 3, 4`,
  );
  return rows;
}

/** Every failure of the proof of `key` with `sources`: lines ≠ transfer, rows ≠ line, a count or a sign off. */
async function check(q: Queryable, scope: string[], key: TransferKey, sources: readonly ProofSource[]): Promise<string[]> {
  const out: string[] = [];
  const raw = await proofRaw(q, scope, key, sources);
  if (!raw) return [`${JSON.stringify(key)}: no proof`];
  const id = `${key.date}.${key.merId}.${key.busLine}.${key.setCur}`;
  const total = raw.lines.reduce((s, l) => s + l.amount, 0);
  if (total !== raw.row.real_trans_amount) out.push(`${id}: lines ${total} ≠ transfer ${raw.row.real_trans_amount}`);
  for (const l of raw.lines) {
    const rows = await lineRowTotals(q, raw.row, l.source, l.part);
    if (rows.sum !== l.amount) out.push(`${id} ${l.source.key}:${l.part}: rows ${rows.sum} ≠ line ${l.amount}`);
    if (rows.n !== l.n) out.push(`${id} ${l.source.key}:${l.part}: ${rows.n} rows ≠ count ${l.n}`);
    if (l.source.sign !== 0 && l.amount * l.source.sign < 0) out.push(`${id} ${l.source.key}: sign`);
  }
  return out;
}

describe.each(DB_KINDS)('payout proof adds up on generated data (%s)', (kind) => {
  let ctx: TestCtx;
  let scope: string[];
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    scope = (await ctx.db.query<{ mer_id: string }>('SELECT mer_id FROM merchant')).rows.map((r) => r.mer_id);
  }, 120_000);
  afterAll(() => ctx?.close());

  const reset = () =>
    ctx.db.query('TRUNCATE settlement, settlement_summary, reserve, settlement_run, settle_late, merchant_fee, fx_rate, export_file, refund_request, logistics, txn, txn_key CASCADE');

  it("every transfer: lines sum to the transfer, each line's rows sum to the line; late rows on the day they settled", async () => {
    let proved = 0;
    let lateSeen = 0;
    await fc.assert(
      fc.asyncProperty(fc.tuple(...FEES.map(([m, l]) => feeArb(m, l))), fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 20 }), async (fees, seed, offset) => {
        await reset();
        const from = addDays('2026-05-04', offset);
        // One line transfers every day whatever was drawn (no threshold, no fee, T+1), so late rows always reach a transfer.
        const daily = fees.map((f): FeeRow => (f[0] === DEMO.subA && f[1] === 'UP' ? [DEMO.subA, 'UP', 200, 0, 1, 0, 0, 0, 0, 'D'] : f));
        await generateProofData(ctx.db, ctx.config.platformTz, { from, days: 12, perDay: 12, seed, late: 10, fees: daily });
        const list = await transfers(ctx.db);
        expect(list.length).toBeGreaterThan(3);
        expect(new Set(list.map((t) => t.merId)).size).toBeGreaterThan(1);
        for (const t of list) {
          expect(await check(ctx.db, scope, t, PROOF_SOURCES)).toEqual([]);
          proved++;
        }
        // Late rows: shown on the day they settled (after their cycle), marked late.
        const { rows: late } = await ctx.db.query<{ id: number; mer_id: string; bus_line: string; set_cur: string; settle_date: string }>(
          `SELECT id, mer_id, bus_line, settle_currency::text AS set_cur, settle_date::text AS settle_date FROM txn WHERE order_no LIKE 'LATE%' AND settle_date IS NOT NULL`,
        );
        expect(late.length).toBeGreaterThan(0);
        for (const l of late) {
          const { rows: tr } = await ctx.db.query<TransferKey>(
            `SELECT txn_set_date::text AS date, mer_id AS "merId", bus_line AS "busLine", set_cur::text AS "setCur" FROM settlement
                WHERE mer_id = $1 AND bus_line = $2 AND set_cur = $3 AND trans_amount > 0 AND $4::date BETWEEN recon_search_date AND txn_set_date`,
            [l.mer_id, l.bus_line, l.set_cur, l.settle_date],
          );
          if (!tr[0]) continue; // still pending (threshold or period): no transfer yet
          const row = (await loadTransfer(ctx.db, scope, tr[0]))!;
          const sales = PROOF_SOURCES.find((s) => s.key === 'settled')!;
          const raw = (await proofRaw(ctx.db, scope, tr[0]))!;
          const rows = (await Promise.all(raw.lines.filter((x) => x.source === sales || x.source.key === 'refunds').map((x) => lineRowsRaw(ctx.db, row, x.source, x.part, 10_000, 0)))).flat();
          const mine = rows.find((r) => Number(r.txn_id) === Number(l.id));
          expect(mine, `late txn ${l.id} in its transfer's proof`).toBeTruthy();
          expect(mine!.late).toBe(true);
          expect(mine!.day).toBe(l.settle_date);
          lateSeen++;
        }
      }),
      { numRuns: 2 },
    );
    expect(proved).toBeGreaterThan(10);
    expect(lateSeen).toBeGreaterThan(0);
  }, 600_000);

  it("a mutation of any one source's SQL (its lines, or its rows) fails the check", async () => {
    await reset();
    await generateProofData(ctx.db, ctx.config.platformTz, { from: '2026-06-01', days: 10, perDay: 12, seed: 4242, late: 8 });
    // The transfers that carry the most settlement days (every source has money in some of them).
    const { rows: list } = await ctx.db.query<TransferKey>(
      `SELECT txn_set_date::text AS date, mer_id AS "merId", bus_line AS "busLine", set_cur::text AS "setCur" FROM settlement
        WHERE trans_amount > 0 ORDER BY txn_set_date - recon_search_date DESC, txn_count DESC, 1, 2, 3, 4 LIMIT 16`,
    );
    const all = await transfers(ctx.db);
    const rest = all.filter((t) => !list.some((x) => JSON.stringify(x) === JSON.stringify(t)));
    /** Fails on some transfer: the longest first, then the others. */
    const failsWith = async (sources: readonly ProofSource[]) => {
      for (const t of [...list, ...rest]) if ((await check(ctx.db, scope, t, sources)).length) return true;
      return false;
    };
    for (const t of list) expect(await check(ctx.db, scope, t, PROOF_SOURCES)).toEqual([]);
    const survivors: string[] = [];
    let killed = 0;
    // Sources with no line in any generated transfer (`carried`; the dispute lines, whose rows this
    // generator does not make — disputes.property.test.ts proves their money) cannot show a mutant.
    const exercised = new Set<string>();
    for (const t of [...list, ...rest]) for (const l of (await proofRaw(ctx.db, scope, t, PROOF_SOURCES))?.lines ?? []) if (l.n > 0) exercised.add(l.source.key);
    const idle = PROOF_SOURCES.filter((s) => !exercised.has(s.key) && s.key !== 'carried').map((s) => s.key);
    expect(idle.filter((k) => !k.startsWith('dispute'))).toEqual([]);
    for (const s of PROOF_SOURCES.filter((x) => !idle.includes(x.key))) {
      const swap = (m: ProofSource) => PROOF_SOURCES.map((x) => (x === s ? m : x));
      // The line's sum off by one unit.
      const lines = { ...s, linesSql: `SELECT m.part, m.n, m.amount + 1 AS amount, m.cur, m.txn_amount, m.rate_min, m.rate_max FROM (${s.linesSql}) m` };
      if (await failsWith(swap(lines))) killed++;
      else survivors.push(`${s.key}: lines +1`);
      // The line's first day left out of its sum (the range's boundary).
      const day = { ...s, linesSql: s.linesSql.replace('BETWEEN $4::date AND $5::date', 'BETWEEN $4::date + 1 AND $5::date') };
      if (day.linesSql !== s.linesSql) {
        if (await failsWith(swap(day))) killed++;
        else survivors.push(`${s.key}: lines from the second day`);
      }
      // One row of the line dropped (rows only: the line still as before).
      const rows = { ...s, rowsSql: `SELECT * FROM (${s.rowsSql}) r OFFSET 1` };
      if (await failsWith(swap(rows))) killed++;
      else if (s.key !== 'carried') survivors.push(`${s.key}: rows minus one`);
    }
    // `carried` has no rows in any generated transfer (the roll-forward starts every range at 0), so
    // dropping one of its rows cannot show; every other mutant is killed.
    expect(survivors).toEqual([]);
    expect(killed).toBeGreaterThanOrEqual((PROOF_SOURCES.length - idle.length) * 2);
  }, 600_000);
});
