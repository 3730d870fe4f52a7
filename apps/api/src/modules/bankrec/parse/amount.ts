import { StatementRefused } from './errors';

/**
 * ISO 4217 minor-unit exponents of the currencies banks write on statements. The portal's own
 * currency list (`@portal/contract` money.ts) is narrower: a statement may carry SEK or BHD.
 */
const EXPONENT_OTHER: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

/** A currency code's exponent (2 unless ISO 4217 says otherwise); refuses what is not three capitals. */
export function exponentFor(currency: string, at: string): number {
  if (!/^[A-Z]{3}$/.test(currency)) throw new StatementRefused('bankElementInvalid', { at, value: currency.slice(0, 20) });
  return EXPONENT_OTHER[currency] ?? 2;
}

/**
 * A bank's decimal amount to minor units: digits, one separator (`.` or `,` as told), at most the
 * currency's decimals, nothing silently rounded. `sep` is the decimal separator of the format.
 */
export function amountToMinor(text: string, currency: string, sep: '.' | ',', at: string): number {
  const e = exponentFor(currency, at);
  const s = text.trim();
  const re = sep === '.' ? /^(\d{1,18})(?:\.(\d*))?$/ : /^(\d{1,18})(?:,(\d*))?$/;
  const m = re.exec(s);
  if (!m) throw new StatementRefused('bankElementInvalid', { at, value: s.slice(0, 30) });
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > e) throw new StatementRefused('bankElementInvalid', { at, value: s.slice(0, 30) });
  const v = BigInt(m[1] + frac.padEnd(e, '0'));
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new StatementRefused('bankElementInvalid', { at, value: s.slice(0, 30) });
  return Number(v);
}

/** Minor units back to the bank's decimal form (for messages): 12345 EUR → '123.45'. */
export function minorToText(minor: number, currency: string): string {
  const e = EXPONENT_OTHER[currency] ?? 2;
  const neg = minor < 0;
  const s = String(Math.abs(minor)).padStart(e + 1, '0');
  return (neg ? '-' : '') + (e ? `${s.slice(0, s.length - e)}.${s.slice(s.length - e)}` : s);
}

/** A real calendar day YYYY-MM-DD, else refused naming `at`. */
export function checkDate(d: string, at: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(d);
  if (m) {
    const t = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
    if (t.getUTCFullYear() === +m[1] && t.getUTCMonth() === +m[2] - 1 && t.getUTCDate() === +m[3]) return d;
  }
  throw new StatementRefused('bankElementInvalid', { at, value: d.slice(0, 30) });
}
