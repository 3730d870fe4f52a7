import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { divRoundHalfEven, exponentOf } from '@portal/contract';
import { DB_KINDS } from '../../../../test/helpers';
import { generateDemoData } from '../../../seed/demo-data';
import { addDays } from '../time';
import { settleRange } from './settle.run';
import { checkInvariants } from './invariants';
import { JP, SG, TZ, reset, setFee, setRate, settleDb, txn, type TestDb } from './settle.fixture';

const D0 = '2026-03-02';
const PERIODS = ['D', 'W1', 'W3', 'W5', 'M2', 'M4', 'M6'];
const feeArb = fc.record({
  mdrBp: fc.integer({ min: 0, max: 1000 }),
  fixedFee: fc.integer({ min: 0, max: 100 }),
  cycleDays: fc.integer({ min: 0, max: 3 }),
  reserveBp: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3000 })),
  holdDays: fc.integer({ min: 0, max: 5 }),
  threshold: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 60_000 })),
  tranFee: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3000 })),
  period: fc.constantFrom(...PERIODS),
});
const MERCHANTS = {
  [SG]: {
    currencies: ['SGD', 'USD'],
    channels: [
      ['CARD', 'visa'],
      ['AP', 'alipay_cn'],
    ],
  },
  [JP]: {
    currencies: ['USD', 'JPY', 'KRW', 'EUR'],
    channels: [
      ['CARD', 'jcb'],
      ['AP', 'alipay_hk'],
      ['WX', 'wechat_pay'],
      ['PPRO_PAYPAY', 'paypay'],
    ],
  },
} as const;
const PAIRS = [
  ['USD', 'SGD'],
  ['JPY', 'USD'],
  ['KRW', 'USD'],
  ['EUR', 'USD'],
] as const;
const TYPES = ['PURC', 'PURC', 'PURC', 'PURC', 'REFD', 'REFD', 'MANENTD', 'FEE_COLLECTION', 'DISPUTE', 'FREEZE', 'UNFREEZE', 'PROFIT_INCOME', 'PROFIT_OUTGO', 'PAUT', 'DECL'];
const txnArb = fc.record({
  mer: fc.constantFrom(SG, JP),
  day: fc.integer({ min: 0, max: 9 }),
  type: fc.constantFrom(...TYPES),
  cur: fc.nat(),
  ch: fc.nat(),
  amount: fc.oneof(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 10_000_000 })),
  result: fc.constantFrom('00', '00', '00', '00', '01', '04'),
  negative: fc.boolean(),
});
const scenarioArb = fc.record({
  fees: fc.record({ SGCARD: feeArb, SGAP: feeArb, JPCARD: feeArb, JPAP: feeArb }),
  rates: fc.array(fc.tuple(fc.integer({ min: 1, max: 99_999_999 }), fc.boolean()), { minLength: 14 * PAIRS.length, maxLength: 14 * PAIRS.length }),
  txns: fc.array(txnArb, { minLength: 1, maxLength: 35 }),
});

describe.each(DB_KINDS)('invariants I1–I6 over generated data on %s', (kind) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await settleDb(kind);
  });
  afterAll(() => db.drop());

  const holds = async () => {
    const v = await checkInvariants(db);
    expect(v).toEqual({ I1: [], I2: [], I3: [], I4: [], I5: [], I6: [], I8: [] });
  };

  it('hold for random schedules, rates and transactions; every amount converts half-even', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        await reset(db);
        for (const [key, f] of Object.entries(s.fees)) await setFee(db, key.startsWith('SG') ? SG : JP, key.slice(2), f);
        for (const [i, [r, missing]] of s.rates.entries()) {
          const [from, to] = PAIRS[i % PAIRS.length];
          if (!missing || i < PAIRS.length) await setRate(db, addDays(D0, Math.floor(i / PAIRS.length)), from, to, (r / 1e6).toFixed(6));
        }
        const purchases: { id: number; mer: string; cur: string; ch: string; left: number }[] = [];
        for (const [n, t] of s.txns.entries()) {
          const m = MERCHANTS[t.mer];
          const cur = m.currencies[t.cur % m.currencies.length];
          const [ch, brand] = m.channels[t.ch % m.channels.length];
          const base = { merId: t.mer, orderNo: `P${n}`, currency: cur, paymentSchema: ch, paymentBrand: brand, gwResponse: t.result, amount: t.amount };
          const day = addDays(D0, t.day);
          if (t.type === 'REFD') {
            const p = purchases.find((x) => x.mer === t.mer && x.cur === cur && x.ch === ch && x.left > 0);
            if (!p) continue;
            const amount = Math.min(t.amount, p.left);
            await txn(db, day, { ...base, tranType: 'REFD', amount, originTxnId: p.id });
            if (t.result !== '01') {
              p.left -= amount;
              await db.query('UPDATE txn SET return_amount = return_amount + $2 WHERE id = $1', [p.id, amount]);
            }
            continue;
          }
          const id = await txn(db, day, { ...base, tranType: t.type, amountSign: t.type === 'MANENTD' && t.negative ? -1 : 1 });
          if (t.type === 'PURC' && t.result === '00') purchases.push({ id, mer: t.mer, cur, ch, left: t.amount });
        }
        await settleRange(db, D0, addDays(D0, 14));
        await holds();
        await everyAmountConverts(db);
      }),
      { numRuns: 20 },
    );
  }, 300_000);

  it('hold for the demo generator with random parameters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), merchants: fc.integer({ min: 0, max: 3 }), days: fc.integer({ min: 3, max: 10 }), perDay: fc.integer({ min: 3, max: 30 }) }),
        async (p) => {
          await reset(db);
          await db.exec(
            `DELETE FROM merchant_bank_account; DELETE FROM store WHERE mer_id LIKE '3%'; DELETE FROM merchant WHERE mer_id LIKE '3%' AND parent_id IS NOT NULL; DELETE FROM merchant WHERE mer_id LIKE '3%'`,
          );
          const s = await generateDemoData(db, { ...p, platformTz: TZ, now: new Date('2026-04-20T08:00:00Z') });
          expect(s.txns).toBeGreaterThan(0);
          await holds();
          await everyAmountConverts(db);
        },
      ),
      { numRuns: 4 },
    );
  }, 300_000);
});

/** Recomputes each settled transaction's converted amount and fee in JavaScript (bigint, half-even). */
async function everyAmountConverts(db: TestDb) {
  const { rows } = await db.query<{
    amount: number;
    currency: string;
    set_cur: string;
    fx_rate: string;
    settle_amount: number;
    settle_fee: number;
    tran_type: string;
    amount_sign: number;
    mdr_bp: number | null;
    fixed_fee: number | null;
  }>(
    `SELECT t.amount, t.currency, t.settle_currency AS set_cur, t.fx_rate, t.settle_amount, t.settle_fee, t.tran_type, t.amount_sign, f.mdr_bp, f.fixed_fee
       FROM txn t LEFT JOIN merchant_fee f ON f.mer_id = t.mer_id AND f.bus_line = t.bus_line WHERE t.settle_date IS NOT NULL`,
  );
  for (const r of rows) {
    const [w, f = ''] = r.fx_rate.split('.');
    const scaled = BigInt(w + f.padEnd(12, '0').slice(0, 12));
    const ef = exponentOf(r.currency.trim());
    const et = exponentOf(r.set_cur.trim());
    const conv = divRoundHalfEven(BigInt(r.amount) * scaled * 10n ** BigInt(et), 10n ** 12n * 10n ** BigInt(ef));
    const sign = ['REFD', 'VOID', 'DISPUTE', 'FREEZE', 'PROFIT_OUTGO', 'FEE_COLLECTION'].includes(r.tran_type) ? -1n : r.tran_type === 'MANENTD' ? BigInt(r.amount_sign) : 1n;
    expect(r.settle_amount).toBe(Number(conv * sign));
    const fee = r.tran_type === 'PURC' ? divRoundHalfEven(conv * BigInt(r.mdr_bp ?? 250), 10000n) + BigInt(r.fixed_fee ?? 0) : 0n;
    expect(r.settle_fee).toBe(Number(fee));
  }
}
