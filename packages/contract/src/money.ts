/** Currencies of spec §9 with their ISO 4217 exponents. */
export const CURRENCY_EXPONENT: Readonly<Record<string, number>> = {
  HKD: 2,
  EUR: 2,
  USD: 2,
  MYR: 2,
  PHP: 2,
  THB: 2,
  GBP: 2,
  JPY: 0,
  IDR: 2,
  CAD: 2,
  NPR: 2,
  AUD: 2,
  CNY: 2,
  KRW: 0,
  MOP: 2,
  NZD: 2,
  TWD: 2,
  SGD: 2,
  RUB: 2,
  INR: 2,
  CHF: 2,
  QAR: 2,
};
export const CURRENCIES = Object.keys(CURRENCY_EXPONENT);

export function exponentOf(currency: string): number {
  const e = CURRENCY_EXPONENT[currency];
  if (e === undefined) throw new Error(`unknown currency ${currency}`);
  return e;
}

/** Minor units (integer) → decimal string with the currency's exponent: 123450, 'USD' → '1234.50'. */
export function toDecimal(minor: number | bigint, currency: string): string {
  const e = exponentOf(currency);
  const n = BigInt(minor);
  const neg = n < 0n;
  const abs = neg ? -n : n;
  const s = abs.toString().padStart(e + 1, '0');
  const whole = e ? s.slice(0, s.length - e) : s;
  const frac = e ? '.' + s.slice(s.length - e) : '';
  return (neg ? '-' : '') + whole + frac;
}

/**
 * Decimal string → minor units. Throws when the string is not a number or has more decimals than
 * the currency allows ('1.005' USD), so no amount is silently rounded.
 */
export function toMinor(decimal: string | number, currency: string): number {
  const e = exponentOf(currency);
  const s = String(decimal).trim();
  const m = /^(-)?(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) throw new RangeError(`not a decimal amount: ${s}`);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > e) throw new RangeError(`too many decimals for ${currency}: ${s}`);
  const v = BigInt(m[2] + frac.padEnd(e, '0'));
  const r = m[1] ? -v : v;
  if (r > BigInt(Number.MAX_SAFE_INTEGER) || r < -BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('amount too large');
  return Number(r);
}

/** True when `decimal` is a valid positive amount in `currency`'s decimals. */
export function isValidAmount(decimal: string, currency: string): boolean {
  try {
    return toMinor(decimal, currency) > 0;
  } catch {
    return false;
  }
}

/**
 * Round half to even of `num / den` for integers (bigint), den > 0. The only rounding used for
 * money: conversion, fees, reserves.
 */
export function divRoundHalfEven(num: bigint, den: bigint): bigint {
  if (den <= 0n) throw new RangeError('den must be > 0');
  const neg = num < 0n;
  const a = neg ? -num : num;
  let q = a / den;
  const r = a - q * den;
  const twice = r * 2n;
  if (twice > den || (twice === den && q % 2n === 1n)) q += 1n;
  return neg ? -q : q;
}

/** Per locale, built once: making an Intl formatter costs far more than using one (a screen formats dozens of amounts). */
const localeFormats = new Map<string, { group: Intl.NumberFormat; sep: string }>();
function localeFormat(locale: string): { group: Intl.NumberFormat; sep: string } {
  let f = localeFormats.get(locale);
  if (!f) {
    const group = new Intl.NumberFormat(locale, { useGrouping: true, maximumFractionDigits: 0 });
    const sep = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
    f = { group, sep };
    localeFormats.set(locale, f);
  }
  return f;
}

/** Format minor units for display in a locale: grouping, the currency's decimals, currency code. */
export function formatMoney(minor: number | bigint, currency: string, locale = 'en'): string {
  const e = exponentOf(currency);
  const dec = toDecimal(minor, currency);
  const [w, f] = dec.replace('-', '').split('.');
  const { group, sep } = localeFormat(locale);
  const grouped = group.format(BigInt(w));
  return `${dec.startsWith('-') ? '-' : ''}${grouped}${e ? sep + f : ''}`;
}
