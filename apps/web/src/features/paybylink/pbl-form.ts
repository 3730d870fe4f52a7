import type { FormInstance, FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { checkPayByLinkForm, type PayByLinkForm } from '@portal/contract';
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
      if (issue) throw new Error(t(`rule.${issue.rule}`, issue.params ?? {}));
    },
  };
}
