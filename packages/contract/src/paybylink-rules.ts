import { CURRENCY_EXPONENT, toDecimal, toMinor } from './money';
import { charLength } from './input';
import { PBL_MAX_VALID_DAYS, type PayByLinkForm } from './paybylink';

/** The pay-by-link form rules of spec §5, shared by the create / modify dialog and the server. */

/** Rule names of the form checks; each side renders them in its own language. */
export type PblRule =
  | 'required'
  | 'greaterThanZero'
  | 'notLessThanOne'
  | 'positiveInteger'
  | 'notNegative'
  | 'decimals'
  | 'invalidEmail'
  | 'inputEmailTips'
  | 'goodsNameTips'
  | 'attachmentTips'
  | 'currencyNotEnabled'
  | 'tooLong'
  | 'validDays'
  | 'amountTooLarge'
  | 'totalMismatch';
export interface PblIssue {
  field: keyof PayByLinkForm;
  rule: PblRule;
  params?: Record<string, string | number>;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const AMOUNT_RE = /^\d+(\.\d+)?$/;
export const truthy = (v: string | boolean | undefined | null) => v === true || v === 'true' || v === '1' || v === 'on';
const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

function amountIssue(field: keyof PayByLinkForm, v: string | undefined, cur: string | undefined, allowZero = false): PblIssue | null {
  if (blank(v)) return { field, rule: 'required' };
  const s = String(v).trim();
  if (!AMOUNT_RE.test(s) || (!allowZero && Number(s) <= 0)) return { field, rule: allowZero ? 'notNegative' : 'greaterThanZero' };
  if (s.split('.')[0].replace(/^0+/, '').length > 12) return { field, rule: 'amountTooLarge' };
  const exp = cur ? CURRENCY_EXPONENT[cur] : undefined;
  const dec = (s.split('.')[1] ?? '').replace(/0+$/, '').length;
  if (exp !== undefined && dec > exp) return { field, rule: 'decimals', params: { n: exp, currency: cur! } };
  return null;
}

/** Minor units of a decimal amount in `currency`, or null when it is not one (yet). */
function minorOf(v: string | undefined, currency: string): bigint | null {
  if (blank(v)) return null;
  try {
    return BigInt(toMinor(String(v).trim(), currency));
  } catch {
    return null;
  }
}

/**
 * What the total must be: unit price × quantity + shipping, as a decimal string in `currency`;
 * null while a part is missing or not a valid amount (issue 10, finding 7).
 */
export function pblTotalOf(price: string | undefined, quantity: string | undefined, logFee: string | undefined, currency: string | undefined): string | null {
  if (!currency || CURRENCY_EXPONENT[currency] === undefined) return null;
  const p = minorOf(price, currency);
  const q = quantity !== undefined && /^\d+$/.test(String(quantity).trim()) ? BigInt(String(quantity).trim()) : null;
  const f = blank(logFee) ? 0n : minorOf(logFee, currency);
  if (p === null || q === null || f === null) return null;
  const total = p * q + f;
  return total > BigInt(Number.MAX_SAFE_INTEGER) ? null : toDecimal(total, currency);
}

/**
 * The unit price that makes `total` add up for one piece: total − shipping (the form's "goods price
 * follows the total amount" when the quantity is 1); null when that is not a positive amount.
 */
export function pblPriceForTotal(total: string | undefined, logFee: string | undefined, currency: string | undefined): string | null {
  if (!currency || CURRENCY_EXPONENT[currency] === undefined) return null;
  const t = minorOf(total, currency);
  const f = blank(logFee) ? 0n : minorOf(logFee, currency);
  if (t === null || f === null || t - f <= 0n) return null;
  return toDecimal(t - f, currency);
}

/**
 * The rules of spec §5, the same on both sides. `mode` 'update' skips the read-only fields
 * (reconId, currency, e-mail, remarks, goods name), which the server keeps as stored.
 */
export function checkPayByLinkForm(v: PayByLinkForm, opts: { mode: 'create' | 'update'; currencies?: readonly string[] }): PblIssue[] {
  const out: PblIssue[] = [];
  const push = (i: PblIssue | null) => i && out.push(i);
  const create = opts.mode === 'create';
  if (create) {
    if (blank(v.reconId)) push({ field: 'reconId', rule: 'required' });
    else if (charLength(v.reconId!.trim()) > 64) push({ field: 'reconId', rule: 'tooLong', params: { n: 64 } });
    if (blank(v.orderCurrency)) push({ field: 'orderCurrency', rule: 'required' });
    else if (opts.currencies && !opts.currencies.includes(v.orderCurrency!)) push({ field: 'orderCurrency', rule: 'currencyNotEnabled' });
    if (blank(v.goodsName)) push({ field: 'goodsName', rule: 'goodsNameTips' });
    else if (charLength(v.goodsName!.trim()) > 128) push({ field: 'goodsName', rule: 'tooLong', params: { n: 128 } });
    if (!blank(v.buyerEmail) && (!EMAIL_RE.test(v.buyerEmail!.trim()) || charLength(v.buyerEmail!.trim()) > 254)) push({ field: 'buyerEmail', rule: 'invalidEmail' });
    if (!blank(v.remarks) && charLength(v.remarks!) > 256) push({ field: 'remarks', rule: 'tooLong', params: { n: 256 } });
  }
  const cur = v.orderCurrency?.trim();
  push(amountIssue('totalAmount', v.totalAmount, cur));
  push(amountIssue('goodsPrice', v.goodsPrice, cur));
  if (blank(v.goodsQuantity)) push({ field: 'goodsQuantity', rule: 'required' });
  else {
    const q = String(v.goodsQuantity).trim();
    if (/^-?\d+(\.0+)?$/.test(q) && Number(q) < 1) push({ field: 'goodsQuantity', rule: 'notLessThanOne' });
    else if (!/^\d+$/.test(q) || Number(q) > 1_000_000) push({ field: 'goodsQuantity', rule: 'positiveInteger' });
  }
  if (!blank(v.logFee)) push(amountIssue('logFee', v.logFee, cur, true));
  if (!blank(v.validDays)) {
    const d = String(v.validDays).trim();
    if (!/^\d+$/.test(d) || Number(d) < 1 || Number(d) > PBL_MAX_VALID_DAYS) push({ field: 'validDays', rule: 'validDays', params: { n: PBL_MAX_VALID_DAYS } });
  }
  // The amounts must add up: total = unit price × quantity + shipping (checked once each part is valid).
  const amountFields: (keyof PayByLinkForm)[] = ['totalAmount', 'goodsPrice', 'goodsQuantity', 'logFee'];
  if (cur && !out.some((i) => amountFields.includes(i.field))) {
    const expected = pblTotalOf(v.goodsPrice, v.goodsQuantity, v.logFee, cur);
    const total = minorOf(v.totalAmount, cur);
    if (expected !== null && total !== null && BigInt(toMinor(expected, cur)) !== total) push({ field: 'totalAmount', rule: 'totalMismatch', params: { expected, currency: cur } });
  }
  if (truthy(v.sendEmailChecked)) {
    if (blank(v.buyerEmail)) push({ field: 'buyerEmail', rule: 'inputEmailTips' });
    if (blank(v.attachment)) push({ field: 'attachment', rule: 'attachmentTips' });
  }
  return out;
}
