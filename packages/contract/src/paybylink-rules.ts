import { CURRENCY_EXPONENT } from './money';
import { PBL_MAX_VALID_DAYS, type PayByLinkForm } from './paybylink';

/** The pay-by-link form rules of spec §5, shared by the create / modify dialog and the server. */

/** Rule names of the form checks; each side renders them in its own language. */
export type PblRule =
  | 'required' | 'greaterThanZero' | 'notLessThanOne' | 'positiveInteger' | 'notNegative' | 'decimals'
  | 'invalidEmail' | 'inputEmailTips' | 'goodsNameTips' | 'attachmentTips' | 'currencyNotEnabled' | 'tooLong' | 'validDays' | 'amountTooLarge';
export interface PblIssue { field: keyof PayByLinkForm; rule: PblRule; params?: Record<string, string | number> }

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
    else if (v.reconId!.trim().length > 64) push({ field: 'reconId', rule: 'tooLong', params: { n: 64 } });
    if (blank(v.orderCurrency)) push({ field: 'orderCurrency', rule: 'required' });
    else if (opts.currencies && !opts.currencies.includes(v.orderCurrency!)) push({ field: 'orderCurrency', rule: 'currencyNotEnabled' });
    if (blank(v.goodsName)) push({ field: 'goodsName', rule: 'goodsNameTips' });
    else if (v.goodsName!.trim().length > 128) push({ field: 'goodsName', rule: 'tooLong', params: { n: 128 } });
    if (!blank(v.buyerEmail) && (!EMAIL_RE.test(v.buyerEmail!.trim()) || v.buyerEmail!.trim().length > 254)) push({ field: 'buyerEmail', rule: 'invalidEmail' });
    if (!blank(v.remarks) && v.remarks!.length > 256) push({ field: 'remarks', rule: 'tooLong', params: { n: 256 } });
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
  if (truthy(v.sendEmailChecked)) {
    if (blank(v.buyerEmail)) push({ field: 'buyerEmail', rule: 'inputEmailTips' });
    if (blank(v.attachment)) push({ field: 'attachment', rule: 'attachmentTips' });
  }
  return out;
}
