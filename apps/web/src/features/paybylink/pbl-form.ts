import type { FormInstance, FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { checkPayByLinkForm, pblPriceForTotal, pblTotalOf, type PayByLinkForm } from '@portal/contract';
import type { PblFormBody } from './api/order-mutations';

/** The create / modify dialog's values (amounts as typed strings: money never goes through floats). */
export interface OrderFormValues {
  reconId?: string;
  orderCurrency?: string;
  totalAmount?: string;
  goodsName?: string;
  goodsPrice?: string;
  goodsQuantity?: string;
  logFee?: string;
  remarks?: string;
  buyerEmail?: string;
  sendEmailChecked?: boolean;
  file?: { attachment: string; fileName: string } | null;
  validDays?: number | null;
}

/** The form's values as the wire's url-encoded form (spec §7 POST /payByLink/add, /updateOrder). */
export function toWireForm(v: OrderFormValues, id?: number): PblFormBody {
  const s = (x: string | undefined) => (x ?? '').trim();
  return {
    ...(id ? { id: String(id) } : {}),
    reconId: s(v.reconId),
    orderCurrency: s(v.orderCurrency),
    totalAmount: s(v.totalAmount),
    goodsName: s(v.goodsName),
    goodsPrice: s(v.goodsPrice),
    goodsQuantity: s(v.goodsQuantity),
    logFee: s(v.logFee) || '0',
    remarks: s(v.remarks),
    buyerEmail: s(v.buyerEmail),
    sendEmailChecked: v.sendEmailChecked ? 'true' : 'false',
    attachment: v.file?.attachment ?? '',
    fileName: v.file?.fileName ?? '',
    validDays: v.validDays ? String(v.validDays) : '',
  };
}

/**
 * The amounts that follow an edit, so total = unit price × quantity + shipping always holds (issue
 * 10, finding 7): a new total with quantity 1 sets the price (spec §5 "the goods price follows the
 * total amount", less shipping) — so does a new currency; a new price, quantity or shipping fee sets the total. Nothing
 * changes while a part is not a valid amount yet (the field rules say why).
 */
export function followingAmounts(v: OrderFormValues, changed: Partial<OrderFormValues>): Partial<OrderFormValues> {
  const cur = v.orderCurrency;
  const qty = (v.goodsQuantity ?? '').trim();
  // A new currency changes what a valid amount is (its decimals): the price follows the total again.
  if ('totalAmount' in changed || 'orderCurrency' in changed) {
    if (qty !== '' && qty !== '1') return {};
    const price = pblPriceForTotal(v.totalAmount, v.logFee, cur);
    return price === null ? {} : { goodsPrice: price };
  }
  if ('goodsPrice' in changed || 'goodsQuantity' in changed || 'logFee' in changed) {
    const total = pblTotalOf(v.goodsPrice, v.goodsQuantity, v.logFee, cur);
    return total === null ? {} : { totalAmount: total };
  }
  return {};
}

/** Applies `followingAmounts` to the dialog's form. */
export function keepAmountsConsistent(form: FormInstance<OrderFormValues>, changed: Partial<OrderFormValues>): void {
  const next = followingAmounts(form.getFieldsValue(true), changed);
  if (Object.keys(next).length) form.setFieldsValue(next);
}

/** Server field name → the dialog's field name. */
export const formFieldOf = (field: string): keyof OrderFormValues => (field === 'attachment' || field === 'fileName' ? 'file' : (field as keyof OrderFormValues));

/**
 * The antd rule of one field, from the contract's shared checks (spec §5): the same rules and
 * messages as the server, rendered in the UI language.
 */
export function pblRule(form: FormInstance<OrderFormValues>, field: keyof PayByLinkForm, mode: 'create' | 'update', t: TFunction): FormRule {
  return {
    validator: async () => {
      const issues = checkPayByLinkForm(toWireForm(form.getFieldsValue(true)) as PayByLinkForm, { mode });
      const issue = issues.find((i) => i.field === field);
      if (issue) throw new Error(t(`rule.${issue.rule}`, issue.params?.n === undefined ? (issue.params ?? {}) : { ...issue.params, count: issue.params.n }));
    },
  };
}
