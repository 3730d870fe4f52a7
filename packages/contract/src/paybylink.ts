import { z } from 'zod';
import { pageQuerySchema } from './api';
import { BEGIN_END, blankToUndefined, isoDateOrDateTime, multilineTextInput, optText, refuseReversed, textInput } from './input';

/**
 * Pay-by-link contract (spec §2 list/detail, §3 order and query, §4 statuses, §5 validation, §7 calls).
 *
 * status:      '04' awaiting payment (link and QR can be paid), '00' paid, '01' ended unpaid
 *              (closed by the merchant, expired, or the payment failed).
 * openStatus:  '02' open, '00' payment processing, '01' closed.
 */
export const PBL_STATUS = { awaiting: '04', paid: '00', ended: '01' } as const;
export const PBL_OPEN = { open: '02', processing: '00', closed: '01' } as const;
export const PBL_PROD_CATEGORY = 'paybylink';

/** Status filter values (spec §4): '02' not paid, '00' processing, 'status00' paid, '01' closed. */
export const PBL_STATUS_FILTERS = ['02', '00', 'status00', '01'] as const;
export type PblStatusFilter = (typeof PBL_STATUS_FILTERS)[number];

export type PblState = 'paid' | 'processing' | 'closed' | 'notPaid';
/** The label rule of spec §4: Paid when status '00'; processing when openStatus '00'; Closed when openStatus '01'; else Not paid. */
export function pblStateOf(o: { status: string; openStatus: string }): PblState {
  if (o.status === PBL_STATUS.paid) return 'paid';
  if (o.openStatus === PBL_OPEN.processing) return 'processing';
  if (o.openStatus === PBL_OPEN.closed) return 'closed';
  return 'notPaid';
}
/** Close and update: only pay-by-link orders, and not once paid, processing or closed. */
export function canModifyPbl(o: { status: string; openStatus: string; prodCategory: string }): boolean {
  return o.prodCategory === PBL_PROD_CATEGORY && pblStateOf(o) === 'notPaid';
}
/** The payment QR shows while the order awaits payment (status '04') and is not closed. */
export function canShowPblQr(o: { status: string; openStatus: string }): boolean {
  return o.status === PBL_STATUS.awaiting && o.openStatus !== PBL_OPEN.closed;
}

/** Attachment rules (spec §5): at most 5 MiB; xlsx, xls, csv, pdf, png, jpg — checked by content on the server. */
export const PBL_ATTACHMENT_TYPES = ['xlsx', 'xls', 'csv', 'pdf', 'png', 'jpg'] as const;
export type PblAttachmentType = (typeof PBL_ATTACHMENT_TYPES)[number];
export const PBL_ATTACHMENT_ACCEPT = '.xlsx,.xls,.csv,.pdf,.png,.jpg,.jpeg';
export const PBL_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
/** Extension (lower case, no dot) → type; .jpeg is a jpg. */
export function attachmentTypeOfName(name: string): PblAttachmentType | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if (!ext) return null;
  if (ext === 'jpeg') return 'jpg';
  return (PBL_ATTACHMENT_TYPES as readonly string[]).includes(ext) ? (ext as PblAttachmentType) : null;
}

/** Link validity (beyond the spec): default 7 days; an expired link cannot be paid. */
export const PBL_DEFAULT_VALID_DAYS = 7;
export const PBL_VALID_DAY_CHOICES = [1, 3, 7, 14, 30] as const;
export const PBL_MAX_VALID_DAYS = 90;

const opt = blankToUndefined;
const text = (max = 64) => optText(max);

/** The list query of spec §3: creation dates 'YYYY-MM-DD' (or with time), platform zone. */
export const payByLinkFilterSchema = z
  .object({
    beginDate: opt(isoDateOrDateTime),
    endDate: opt(isoDateOrDateTime),
    reconId: text(),
    orderno: text(),
    status: opt(z.enum(PBL_STATUS_FILTERS)),
  })
  .superRefine(refuseReversed(BEGIN_END));
export type PayByLinkFilter = z.infer<typeof payByLinkFilterSchema>;
export const payByLinkQuerySchema = pageQuerySchema.extend(payByLinkFilterSchema.shape).superRefine(refuseReversed(BEGIN_END));
export type PayByLinkQuery = z.infer<typeof payByLinkQuerySchema>;

/** A list row (spec §2 columns), with merId/merName and prodCategory for the operations. */
export const payByLinkRowSchema = z.object({
  id: z.number(),
  orderno: z.string(),
  createTime: z.string(),
  reconId: z.string(),
  orderCurrency: z.string(),
  totalAmount: z.string(),
  buyerEmail: z.string().nullable(),
  status: z.string(),
  openStatus: z.string(),
  prodCategory: z.string(),
  merId: z.string(),
  merName: z.string(),
});
export type PayByLinkRow = z.infer<typeof payByLinkRowSchema>;

/** The order (spec §3 pay-by-link order) plus expiry, e-mail result and the resulting transaction. */
export const payByLinkOrderSchema = payByLinkRowSchema.extend({
  goodsName: z.string(),
  goodsPrice: z.string(),
  goodsQuantity: z.number(),
  logFee: z.string(),
  remarks: z.string().nullable(),
  userEmail: z.string().nullable(),
  attachment: z.string().nullable(),
  fileName: z.string().nullable(),
  sendEmailChecked: z.boolean(),
  link: z.string(),
  expireTime: z.string(),
  paidTime: z.string().nullable(),
  closeTime: z.string().nullable(),
  closeReason: z.enum(['merchant', 'expired', 'failed']).nullable(),
  emailStatus: z.enum(['sent', 'failed']).nullable(),
  txnId: z.number().nullable(),
});
export type PayByLinkOrder = z.infer<typeof payByLinkOrderSchema>;

export const PBL_ACTIVITY_KINDS = ['created', 'updated', 'emailed', 'emailFailed', 'opened', 'payment', 'closed', 'expired'] as const;
export const payByLinkActivitySchema = z.object({
  time: z.string(),
  kind: z.enum(PBL_ACTIVITY_KINDS),
  actor: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type PayByLinkActivity = z.infer<typeof payByLinkActivitySchema>;
export const payByLinkDetailSchema = payByLinkOrderSchema.extend({ activity: z.array(payByLinkActivitySchema) });
export type PayByLinkDetail = z.infer<typeof payByLinkDetailSchema>;

/** The status the QR dialog polls (GET /payByLink/orderno/{no}). */
export const payByLinkOrderStatusSchema = z.object({
  orderno: z.string(),
  reconId: z.string(),
  status: z.string(),
  openStatus: z.string(),
  closeReason: z.string().nullable(),
});

/**
 * Create / update form (url-encoded). Everything arrives as text; control characters are refused
 * here (remarks may hold line breaks), the rules of paybylink-rules.ts decide the rest (lengths in
 * characters there, per field, with the form's own messages).
 */
const formText = (max = 1000) => textInput(max, { trim: false }).optional();
export const payByLinkFormSchema = z.object({
  id: formText(32),
  reconId: formText(),
  orderCurrency: formText(16),
  totalAmount: formText(64),
  goodsName: formText(),
  goodsPrice: formText(64),
  goodsQuantity: formText(64),
  logFee: formText(64),
  remarks: multilineTextInput(4000, { trim: false }).optional(),
  buyerEmail: formText(),
  sendEmailChecked: formText(16),
  attachment: formText(200),
  fileName: formText(300),
  validDays: formText(16),
});
export type PayByLinkForm = z.infer<typeof payByLinkFormSchema>;

export const payByLinkAddResultSchema = z.object({
  id: z.number(),
  orderNo: z.string(),
  payByLink: z.string(),
  /** 'failed' when the buyer e-mail could not be sent (shown to the merchant, never silent). */
  emailStatus: z.enum(['sent', 'failed', 'none']),
});
export type PayByLinkAddResult = z.infer<typeof payByLinkAddResultSchema>;

export const payByLinkUploadResultSchema = z.object({ attachment: z.string(), fileName: z.string(), size: z.number(), type: z.enum(PBL_ATTACHMENT_TYPES) });

/** A payment method of qrList / the checkout: brand code, display name, channel, logo URL. */
export const payMethodSchema = z.object({ code: z.string(), name: z.string(), channel: z.string(), logo: z.string(), card: z.boolean() });
export type PayMethod = z.infer<typeof payMethodSchema>;

/** The hosted checkout's view of an order (public, by token). Times are ISO 8601 instants: the buyer's page shows them in the buyer's zone. */
export const checkoutOrderSchema = z.object({
  orderno: z.string(),
  merName: z.string(),
  reconId: z.string(),
  goodsName: z.string(),
  goodsPrice: z.string(),
  goodsQuantity: z.number(),
  logFee: z.string(),
  totalAmount: z.string(),
  /** Unit price × quantity. */
  subtotal: z.string(),
  /** total = subtotal + shipping. False only for an order stored before that rule: the page then shows the total alone. */
  linesAddUp: z.boolean(),
  orderCurrency: z.string(),
  remarks: z.string().nullable(),
  status: z.string(),
  openStatus: z.string(),
  closeReason: z.string().nullable(),
  expireTime: z.string(),
  methods: z.array(payMethodSchema),
  payment: z.object({ result: z.enum(['success', 'failed', 'pending']), respMsg: z.string().nullable(), brand: z.string().nullable(), time: z.string() }).nullable(),
  /** In-store orders: the store (the page shows it instead of the invoice). */
  storeName: z.string().nullable(),
});
export type CheckoutOrder = z.infer<typeof checkoutOrderSchema>;
export const checkoutPaySchema = z.object({
  method: textInput(40, { min: 1 }),
  cardNumber: textInput(23).optional(),
});
export const checkoutPayResultSchema = z.object({
  result: z.enum(['success', 'failed', 'pending']),
  respMsg: z.string().nullable(),
  status: z.string(),
  openStatus: z.string(),
});
export type CheckoutPayResult = z.infer<typeof checkoutPayResultSchema>;

export * from './paybylink-rules';
