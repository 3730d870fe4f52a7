import { exponentOf } from '@portal/contract';
import { sandboxOutcome } from '../sandbox.acquirer';
import { CARD_PREFIX, USD_VALUE } from './catalog';
import type { Rng } from './rng';

/** Minor units of `cur` worth about `usd` US dollars, rounded to a price-like step. */
export function minorFor(usd: number, cur: string): number {
  const e = exponentOf(cur);
  const major = usd / USD_VALUE[cur];
  const step = major >= 10_000 ? 100 : major >= 1_000 ? 10 : 0;
  const m = step ? Math.round(major / step) * step * 10 ** e : Math.round(major * 10 ** e);
  return Math.max(m, 1);
}

/** A basket price: log-normal around 45 USD, between 1 and 5000 USD. */
export function basketUsd(rng: Rng): number {
  return Math.min(5000, Math.max(1, Math.exp(Math.log(45) + 0.9 * rng.normal())));
}

/** The sandbox result an amount gives ('00', '01', '04'). */
export const resultOf = (minor: number) => sandboxOutcome(minor).gwResponse;

/** Sets the last two digits (minor units) so the sandbox gives the wanted result (docs/sandbox.md). */
export function withTail(minor: number, want: 'ok' | 'fail' | 'pendOk' | 'pendFail'): number {
  if (want === 'ok') {
    let m = minor;
    while (resultOf(m) !== '00') m += 1;
    return m;
  }
  const tail = want === 'fail' ? 51 : want === 'pendOk' ? 4 : 14;
  return minor - (minor % 100) + tail;
}

/** A refund amount at most `max` with the wanted sandbox result; 0 when none fits. */
export function refundAmount(target: number, max: number, want: 'ok' | 'fail' | 'pendOk'): number {
  let m = withTail(Math.max(1, Math.min(target, max)), want);
  if (m > max) m = want === 'ok' ? (resultOf(max) === '00' ? max : 0) : m - 100;
  return m > 0 && m <= max ? m : 0;
}

/** A test card number of the scheme (the ledger keeps only its first six and last four digits). */
export function cardNumber(rng: Rng, brand: string): string {
  const prefix = CARD_PREFIX[brand] ?? '4';
  const len = brand === 'amex' ? 15 : 16;
  return prefix + rng.digits(len - prefix.length);
}

/** Hour-of-day weights of shopping (platform zone): quiet nights, lunch and evening peaks. */
const HOUR_WEIGHTS = [1, 0.6, 0.4, 0.3, 0.3, 0.4, 0.8, 1.5, 2.5, 3, 3.2, 3.5, 4, 3.8, 3.5, 3.3, 3.2, 3.5, 4, 4.2, 4, 3.5, 2.5, 1.6];
const CUM = HOUR_WEIGHTS.reduce<number[]>((a, w) => [...a, (a[a.length - 1] ?? 0) + w], []);

/** Seconds after midnight, following HOUR_WEIGHTS. */
export function secondOfDay(rng: Rng): number {
  const r = rng.next() * CUM[CUM.length - 1];
  let h = 0;
  while (CUM[h] <= r) h++;
  return h * 3600 + Math.floor(rng.next() * 3600);
}
