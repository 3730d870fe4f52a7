import { z } from 'zod';
import { pageQuerySchema } from './api';
import { BEGIN_END, isoDateOrDateTime, refuseReversed, textInput } from './input';
import { PBL_STATUS_FILTERS, checkPayByLinkForm, payByLinkActivitySchema, payMethodSchema, type PblRule } from './paybylink';

/**
 * Stores, pay in store and cashiers (spec §2 pay-in-store list, §6 Cashier, §7 /payInStore*).
 * An in-store order is an order of the hosted checkout (prodCategory 'payinstore') that belongs to
 * a store; its status columns follow the pay-by-link rules (pblStateOf).
 */
export const PIS_PROD_CATEGORY = 'payinstore';
/** A dynamic QR can be paid for 30 minutes: the QR dialog's 600 polls of 3 s. */
export const PIS_VALID_MINUTES = 30;
export const STORE_ID_RE = /^S\d{8}$/;

const opt = <T extends z.ZodTypeAny>(s: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), s.optional());
/** A real calendar date (and time), 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm:ss'. */
export function isRealDateTime(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(s);
  if (!m) return false;
  const [y, mo, d, h = '0', mi = '0', se = '0'] = m.slice(1);
  const t = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +se));
  return t.getUTCFullYear() === +y && t.getUTCMonth() === +mo - 1 && t.getUTCDate() === +d && t.getUTCHours() === +h && t.getUTCMinutes() === +mi && t.getUTCSeconds() === +se;
}

/** A store as the merchant sees it: `methods` are the payment methods it can take (enabled brands whose channel the merchant has). */
export const storeSchema = z.object({
  storeId: z.string(),
  storeName: z.string(),
  merId: z.string(),
  merName: z.string(),
  address: z.string().nullable(),
  brands: z.array(z.string()),
  methods: z.array(payMethodSchema),
  /** The merchant currencies (default first) in which the store takes at least one method. */
  currencies: z.array(z.string()),
  /** False when the store can take no payment method: 'You have not enabled this function, please contact sales'. */
  enabled: z.boolean(),
  /** The store's static QR link (the buyer enters the amount); null when the store is not enabled. */
  staticLink: z.string().nullable(),
  cashiers: z.number(),
});
export type Store = z.infer<typeof storeSchema>;

/** /payInStore/list query (spec §2: time range, store, status, order number). */
export const payInStoreFilterSchema = z.object({
  // The one strict date parser (years 1900–2999, real dates) and the reversed-range check (issue 28).
  beginDate: opt(isoDateOrDateTime),
  endDate: opt(isoDateOrDateTime),
  storeId: opt(z.string().trim().regex(STORE_ID_RE, 'storeId')),
  orderno: opt(textInput(64)),
  status: opt(z.enum(PBL_STATUS_FILTERS)),
});
export type PayInStoreFilter = z.infer<typeof payInStoreFilterSchema>;
export const payInStoreQuerySchema = pageQuerySchema.extend(payInStoreFilterSchema.shape).superRefine(refuseReversed(BEGIN_END));
/** /payInStore/export query: the filter, the file format, the same range checks. */
export const payInStoreExportQuerySchema = <S extends z.ZodRawShape>(format: z.ZodObject<S>) => payInStoreFilterSchema.extend(format.shape).superRefine(refuseReversed(BEGIN_END));
/** /payInStore/orderno/:no — the one strict text parser (no control characters, at most 64). */
export const payInStoreOrderNoParamsSchema = z.object({ no: textInput(64, { min: 1 }) });

/** A list row: like the pay-by-link list, with the store and the goods instead of invoice and buyer. */
export const payInStoreRowSchema = z.object({
  id: z.number(),
  orderno: z.string(),
  createTime: z.string(),
  storeId: z.string(),
  storeName: z.string(),
  merId: z.string(),
  merName: z.string(),
  orderCurrency: z.string(),
  totalAmount: z.string(),
  goodsName: z.string(),
  status: z.string(),
  openStatus: z.string(),
  /** 'dynamic': created in the portal (QR per order); 'static': the buyer entered the amount on the store's printed QR. */
  qrType: z.enum(['dynamic', 'static']),
  paymentBrand: z.string().nullable(),
});
export type PayInStoreRow = z.infer<typeof payInStoreRowSchema>;

export const payInStoreDetailSchema = payInStoreRowSchema.extend({
  link: z.string(),
  expireTime: z.string(),
  paidTime: z.string().nullable(),
  closeTime: z.string().nullable(),
  closeReason: z.enum(['merchant', 'expired', 'failed']).nullable(),
  txnId: z.number().nullable(),
  createdBy: z.string().nullable(),
  activity: z.array(payByLinkActivitySchema),
});
export type PayInStoreDetail = z.infer<typeof payInStoreDetailSchema>;

/** POST /payInStore/add (params / form). Everything arrives as text. */
export const payInStoreAddSchema = z.object({
  storeId: z.string().optional(),
  orderCurrency: z.string().optional(),
  totalAmount: z.string().optional(),
  goodsName: z.string().optional(),
});
export type PayInStoreAdd = z.infer<typeof payInStoreAddSchema>;
export const payInStoreAddResultSchema = z.object({ id: z.number(), orderNo: z.string(), link: z.string(), expireTime: z.string() });
export type PayInStoreAddResult = z.infer<typeof payInStoreAddResultSchema>;

/** What the dynamic QR dialog polls (GET /payInStore/orderno/{no}). */
export const payInStoreStatusSchema = z.object({ orderno: z.string(), status: z.string(), openStatus: z.string(), closeReason: z.string().nullable() });

/** The buyer's page of a store's static QR (public, by the store's token). */
export const storeCheckoutSchema = z.object({
  merName: z.string(),
  storeName: z.string(),
  currencies: z.array(z.string()),
  methods: z.array(payMethodSchema),
});
export type StoreCheckout = z.infer<typeof storeCheckoutSchema>;
export const storeCheckoutOrderSchema = z.object({ orderCurrency: z.string().trim().length(3), totalAmount: z.string().trim().min(1).max(20) });

/** A cashier of a store (spec §6: cashierId, WeChat name, binding date). */
export const cashierSchema = z.object({
  cashierId: z.string(),
  storeId: z.string(),
  storeName: z.string(),
  wechatName: z.string(),
  bindTime: z.string(),
  boundBy: z.string().nullable(),
});
export type Cashier = z.infer<typeof cashierSchema>;

export type PisRule = PblRule | 'storeRequired' | 'controlChars';
export interface PisIssue {
  field: keyof PayInStoreAdd;
  rule: PisRule;
  params?: Record<string, string | number>;
}
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * The in-store order form's rules (store, currency, amount, goods), the same in the dialog and on
 * the server: the amount and goods rules are those of the pay-by-link form (spec §5).
 */
export function checkPayInStoreForm(v: PayInStoreAdd, opts: { currencies?: readonly string[] } = {}): PisIssue[] {
  const out: PisIssue[] = [];
  if (!v.storeId?.trim()) out.push({ field: 'storeId', rule: 'storeRequired' });
  const pbl = checkPayByLinkForm(
    { reconId: '-', orderCurrency: v.orderCurrency, totalAmount: v.totalAmount, goodsPrice: v.totalAmount, goodsQuantity: '1', goodsName: v.goodsName },
    { mode: 'create', currencies: opts.currencies },
  );
  for (const i of pbl) if (i.field === 'orderCurrency' || i.field === 'totalAmount' || i.field === 'goodsName') out.push(i as PisIssue);
  if (v.goodsName && CONTROL_RE.test(v.goodsName)) out.push({ field: 'goodsName', rule: 'controlChars' });
  return out;
}
