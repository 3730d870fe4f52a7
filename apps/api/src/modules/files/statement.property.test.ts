import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DB_KINDS } from '../../../test/helpers';
import { FEES, generateReportData, type FeeRow } from '../report/report.fixtures';
import { reset, settleDb, TZ, type TestDb } from '../payments/settlement/settle.fixture';
import { addMonths, buildStatement, monthBounds } from './statement.service';

/** I7 over generated data: every statement rolls forward to the minor unit, and month M closes where M+1 opens. */
const PERIODS = ['D', 'W1', 'W4', 'W7', 'M1', 'M15', 'M28'];
const feeArb = fc.record({
  mdr: fc.integer({ min: 0, max: 1000 }),
  fixed: fc.integer({ min: 0, max: 200 }),
  cycle: fc.integer({ min: 0, max: 3 }),
  reserve: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3000 })),
  hold: fc.integer({ min: 0, max: 40 }),
  threshold: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500_000 })),
  tranFee: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3000 })),
  period: fc.constantFrom(...PERIODS),
});
const scenarioArb = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  startDay: fc.integer({ min: 1, max: 28 }),
  days: fc.integer({ min: 20, max: 70 }),
  perDay: fc.integer({ min: 1, max: 8 }),
  fees: fc.array(feeArb, { minLength: FEES.length, maxLength: FEES.length }),
});

describe.each(DB_KINDS)('monthly statement invariant I7 on %s', (kind) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await settleDb(kind);
  });
  afterAll(() => db.drop());

  it('opening + settled − fees − withheld + released − transfers = closing; closing of M = opening of M+1; equals the settlement rows', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        await reset(db);
        const fees = FEES.map((f, i): FeeRow => {
          const x = s.fees[i];
          return [f[0], f[1], x.mdr, x.fixed, x.cycle, x.reserve, x.hold, x.threshold, x.tranFee, x.period];
        });
        const from = `2026-01-${String(s.startDay).padStart(2, '0')}`;
        await generateReportData(db, TZ, { from, days: s.days, perDay: s.perDay, seed: s.seed, fees });
        const pairs = (await db.query<{ mer_id: string; set_cur: string }>('SELECT DISTINCT mer_id, set_cur FROM settlement')).rows;
        for (const p of pairs) {
          let prevClosing = 0;
          for (let m = '2026-01'; m <= '2026-04'; m = addMonths(m, 1)) {
            const st = await buildStatement(db, p.mer_id, p.set_cur.trim(), m);
            expect(st.opening + st.settled - st.fees - st.withheld + st.released - st.transferred, `${p.mer_id} ${p.set_cur} ${m}`).toBe(st.closing);
            expect(st.opening).toBe(prevClosing);
            prevClosing = st.closing;
            // The same figures straight from the month's settlement rows (what the transfer report shows).
            const [first, last] = monthBounds(m);
            const { rows } = await db.query<{ recon: string | null; held: string | null; rel: string | null; before: string | null; fee: string | null }>(
              `SELECT sum(recon_set_amount) AS recon, sum(serv_amount) AS held, sum(released_amount) AS rel, sum(trans_amount) AS before, sum(tran_fee) AS fee
                 FROM settlement WHERE mer_id = $1 AND set_cur = $2 AND txn_set_date BETWEEN $3 AND $4`,
              [p.mer_id, p.set_cur, first, last],
            );
            const r = rows[0];
            expect(st.settled - st.fees).toBe(Number(r.recon ?? 0));
            expect(st.withheld).toBe(Number(r.held ?? 0));
            expect(st.released).toBe(Number(r.rel ?? 0));
            expect(st.transferred).toBe(Number(r.before ?? 0));
            expect(st.transferFees).toBe(st.transfers.reduce((a, t) => a + t.fee, 0));
            expect(st.outstandingReserve).toBeGreaterThanOrEqual(0);
          }
        }
      }),
      { numRuns: 8 },
    );
  }, 600_000);
});
