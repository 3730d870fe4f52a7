/**
 * Test data for the reports: transactions generated from a seeded PRNG go in through ingestion,
 * then the payment core's settlement run produces the rows the reports read — as in production.
 */
import type { Db } from '../../db/db';
import { DEMO } from '../../seed/foundation.seed';
import { ingestBatch } from '../payments';
import type { IngestInput } from '../payments';
import { settleRange } from '../payments';
import { zonedInstant } from '../../lib/zone';
import { addDays } from '../../lib/dates';

/** Deterministic PRNG (mulberry32). */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One merchant_fee row: mer, line, mdr bp, fixed, cycle, reserve bp, hold, threshold, tran fee, period. */
export type FeeRow = [string, string, number, number, number, number, number, number, number, string];

/** Fee schedules that exercise reserves, hold days, thresholds, transfer fees and weekly / monthly periods. */
export const FEES: FeeRow[] = [
  // mer, line, mdr bp, fixed, cycle, reserve bp, hold, threshold, tran fee, period
  [DEMO.group, 'CARD', 300, 100, 1, 1000, 7, 0, 500, 'D'],
  [DEMO.group, 'UP', 200, 0, 1, 0, 0, 100000, 2000, 'W3'],
  [DEMO.group, 'AP', 250, 0, 1, 500, 3, 0, 0, 'M15'],
  [DEMO.subA, 'WX', 180, 0, 1, 500, 5, 50000, 1000, 'W1'],
  [DEMO.subA, 'UP', 200, 0, 2, 0, 0, 0, 0, 'D'],
  [DEMO.subB, 'CARD', 350, 30, 1, 1000, 10, 10000, 1500, 'D'],
  [DEMO.other, 'CARD', 300, 0, 1, 1000, 4, 0, 0, 'D'],
];

/** Channel → brands; merchant → channels and transaction currencies it may use (the foundation seed's). */
const BRANDS: Record<string, string[]> = {
  CARD: ['visa', 'mastercard', 'jcb'],
  UP: ['unionpay'],
  APP: ['unionpay'],
  AP: ['alipay_cn', 'alipay_hk'],
  APMP: ['alipay_cn'],
  WX: ['wechat_pay'],
  PPRO_IDEAL: ['ideal'],
  PPRO_PAYPAY: ['paypay'],
};
const MERCHANTS: Record<string, { channels: string[]; currencies: string[] }> = {
  [DEMO.group]: { channels: ['UP', 'AP', 'WX', 'CARD', 'PPRO_IDEAL'], currencies: ['HKD', 'USD', 'CNY', 'JPY'] },
  [DEMO.subA]: { channels: ['UP', 'APP', 'AP', 'APMP', 'WX'], currencies: ['CNY', 'USD', 'HKD'] },
  [DEMO.subB]: { channels: ['CARD', 'AP', 'PPRO_PAYPAY', 'WX'], currencies: ['JPY', 'USD', 'KRW'] },
  [DEMO.other]: { channels: ['CARD', 'AP'], currencies: ['SGD', 'USD'] },
};
const RATES: [string, string, string][] = [
  ['USD', 'HKD', '7.8125'],
  ['CNY', 'HKD', '1.0833'],
  ['JPY', 'HKD', '0.0521'],
  ['EUR', 'HKD', '8.4567'],
  ['USD', 'CNY', '7.2117'],
  ['HKD', 'CNY', '0.9231'],
  ['JPY', 'USD', '0.006667'],
  ['KRW', 'USD', '0.000731'],
  ['EUR', 'USD', '1.0825'],
  ['USD', 'SGD', '1.3456'],
];
const MINOR: Record<string, [number, number]> = { JPY: [300, 90000], KRW: [3000, 900000] };

export interface GenOptions {
  /** First transaction date. */
  from: string;
  days: number;
  perDay: number;
  seed?: number;
  /** Settle through this date (default: the day after the last transaction date + 1). */
  settleThrough?: string;
  /** Fee schedules (default FEES). */
  fees?: FeeRow[];
}

/** Fee schedules and rates, then `days` days of transactions, then the settlement run over them. */
export async function generateReportData(db: Db, tz: string, o: GenOptions): Promise<{ txns: number; last: string }> {
  const rnd = prng(o.seed ?? 42);
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)];
  await db.tx(async (q) => {
    for (const f of o.fees ?? FEES) {
      await q.query(
        `INSERT INTO merchant_fee (mer_id, bus_line, mdr_bp, fixed_fee, cycle_days, reserve_bp, reserve_hold_days, tran_threshold, tran_fee, transfer_period)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT DO NOTHING`,
        f,
      );
    }
    // A rate for every day (the run takes only a recent one).
    for (const [from, to, rate] of RATES) {
      await q.query(
        `INSERT INTO fx_rate (rate_date, from_cur, to_cur, rate)
         SELECT d::date, $3, $4, $5 FROM generate_series($1::date, $2::date, interval '1 day') d ON CONFLICT DO NOTHING`,
        [addDays(o.from, -1), addDays(o.from, o.days + 90), from, to, rate],
      );
    }
  });
  let seq = 0;
  let total = 0;
  const purchases: IngestInput[] = [];
  const refunded = new Map<string, number>();
  for (let i = 0; i < o.days; i++) {
    const date = addDays(o.from, i);
    const batch: IngestInput[] = [];
    for (let n = 0; n < o.perDay; n++) {
      const merId = pick(Object.keys(MERCHANTS));
      const m = MERCHANTS[merId];
      const channel = pick(m.channels);
      const currency = pick(m.currencies);
      const [lo, hi] = MINOR[currency] ?? [500, 150000];
      const txnTime = zonedInstant(date, tz, 8 * 60 + Math.floor(rnd() * 14 * 60));
      const base = { merId, orderNo: `R${date.replace(/-/g, '')}${String(++seq).padStart(6, '0')}`, currency, paymentSchema: channel, txnTime, source: 'generator' };
      const r = rnd();
      const refundable = r < 0.1 ? purchases.filter((p) => p.merId === merId && p.gwResponse === '00' && p.amount - (refunded.get(p.orderNo) ?? 0) > 1) : [];
      if (refundable.length) {
        const p = pick(refundable);
        const left = p.amount - (refunded.get(p.orderNo) ?? 0);
        const amount = Math.max(1, Math.floor(left * (0.2 + rnd() * 0.8)));
        refunded.set(p.orderNo, (refunded.get(p.orderNo) ?? 0) + amount);
        batch.push({ ...base, currency: p.currency, paymentSchema: p.paymentSchema, paymentBrand: p.paymentBrand, tranType: 'REFD', amount, originOrderNo: p.orderNo, gwResponse: '00' });
      } else if (r < 0.14) {
        batch.push({ ...base, paymentBrand: pick(BRANDS[channel]), tranType: 'MANENTD', amount: lo + Math.floor(rnd() * lo * 4), amountSign: rnd() < 0.5 ? -1 : 1, gwResponse: '00' });
      } else if (r < 0.17) {
        batch.push({ ...base, paymentBrand: pick(BRANDS[channel]), tranType: 'FEE_COLLECTION', amount: lo, gwResponse: '00' });
      } else {
        const gw = rnd() < 0.08 ? '01' : rnd() < 0.04 ? '04' : '00';
        const p: IngestInput = { ...base, paymentBrand: pick(BRANDS[channel]), tranType: 'PURC', amount: lo + Math.floor(rnd() * (hi - lo)), gwResponse: gw };
        batch.push(p);
        purchases.push(p);
      }
    }
    await db.tx((q) => ingestBatch(q, batch, { platformTz: tz, randomHex: () => (++seq).toString(16).padStart(16, '0') }));
    total += batch.length;
  }
  const last = addDays(o.from, o.days - 1);
  await settleRange(db, addDays(o.from, 1), o.settleThrough ?? addDays(last, 2));
  return { txns: total, last };
}
