import { z } from 'zod';
import { pageQuerySchema } from './api';
import { BEGIN_END, blankToUndefined, isoDate, isoDateTime, optText, refuseReversed, textInput } from './input';

/** Transactions contract (spec §3, §4, §7): query, rows, detail, refund, settle list, logistics. */

export const TXN_TYPES = [
  'PURC',
  'REFD',
  'VOID',
  'MANENTD',
  'PAUT',
  'DISPUTE',
  'DECL',
  'FREEZE',
  'UNFREEZE',
  'PROFIT_INCOME',
  'PROFIT_OUTGO',
  'FEE_COLLECTION',
  // Issue 48: a won dispute's credit back, and the dispute fee (docs/disputes.md).
  'DISPUTE_REVERSAL',
  'DISPUTE_FEE',
] as const;
export type TxnType = (typeof TXN_TYPES)[number];

/** Result filter values (spec §4): success '00', processing ('04' or empty), failed '01' (anything else). */
export const RESULT_FILTERS = ['00', '04', '01'] as const;
export type ResultState = 'S' | 'P' | 'F';
export function resultStateOf(gwResponse: string | null | undefined): ResultState {
  if (gwResponse === '00') return 'S';
  if (!gwResponse || gwResponse === '04') return 'P';
  return 'F';
}

/** Settle state shown for a row (spec §4): N not settled, W to be transferred, T transferred, '' blank. */
export type SettleState = 'N' | 'W' | 'T' | '';
export function settleStateOf(settleFlag: string | null | undefined, gwResponse: string | null | undefined): SettleState {
  if (settleFlag === 'T') return 'T';
  if (gwResponse !== '00') return '';
  if (settleFlag === 'N') return 'N';
  if (settleFlag === 'Y' || settleFlag === 'S') return 'W';
  return '';
}

/** Settlement sign of a type (domain.md); 0 = never settles. MANENTD carries its own sign. */
export const TXN_SIGN: Readonly<Record<TxnType, 1 | -1 | 0>> = {
  PURC: 1,
  UNFREEZE: 1,
  PROFIT_INCOME: 1,
  MANENTD: 1,
  REFD: -1,
  VOID: -1,
  DISPUTE: -1,
  FREEZE: -1,
  PROFIT_OUTGO: -1,
  FEE_COLLECTION: -1,
  PAUT: 0,
  DECL: 0,
  // Issue 48.
  DISPUTE_REVERSAL: 1,
  DISPUTE_FEE: -1,
};

/** Logistics statuses accepted by the import. */
export const LOGISTICS_STATUSES = ['SHIPPED', 'IN_TRANSIT', 'DELIVERED', 'RETURNED', 'CANCELLED'] as const;

/** Shape only (the screens' URL filters); inputs are checked by isoDate / isoDateTime of ./input. */
export const DATETIME_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const dateTime = isoDateTime;
const date = isoDate;
const opt = blankToUndefined;
const text = (max = 64) => optText(max);

/** Days a query or an export period may span ("three months"). */
export const MAX_RANGE_DAYS = 93;

/**
 * The transaction query of spec §3. Times are 'YYYY-MM-DD HH:mm:ss' in the platform zone;
 * beginDateOriginal/endDateOriginal (the picker's values in the chosen zone) and timeZone are kept
 * for display and ignored by the filter. paymentBrand is comma-joined.
 */
export const txnFilterSchema = z
  .object({
    beginDate: opt(dateTime),
    endDate: opt(dateTime),
    beginDateOriginal: text(32),
    endDateOriginal: text(32),
    timeZone: text(40),
    userName: text(128),
    merId: opt(
      z
        .string()
        .trim()
        .regex(/^\d{15}$/, 'merchant id'),
    ),
    orderNum: text(),
    channelOrderNum: text(),
    originOrderNum: text(),
    gwGTransId: text(),
    /** Spec §4 names the refund type "REFD/REFUND": REFUND is taken as REFD. */
    gwTranType: opt(z.preprocess((v) => (typeof v === 'string' && v.trim().toUpperCase() === 'REFUND' ? 'REFD' : v), z.enum(TXN_TYPES))),
    gwResponse: opt(z.enum(RESULT_FILTERS)),
    merReserve: text(128),
    paymentSchema: text(32),
    paymentBrand: opt(
      z
        .string()
        .trim()
        .max(2000)
        .regex(/^[a-z0-9_]+(,[a-z0-9_]+)*$/, 'comma-joined brand codes'),
    ),
  })
  .superRefine(refuseReversed(BEGIN_END));
export type TxnFilter = z.infer<typeof txnFilterSchema>;
/**
 * The list counts its matches exactly up to this many; past it the total reads "more than N"
 * (totalExact false) unless the caller asks for the exact count (exactTotal=true), so a page of
 * the largest merchant costs what a page of a small one does (issue 16).
 */
export const TXN_COUNT_BUDGET = 1_000;
/** Pages reach this many rows deep at most (bounded offsets: page × size < TXN_MAX_OFFSET). */
export const TXN_MAX_OFFSET = 10_000;
export const txnQuerySchema = pageQuerySchema
  .extend(txnFilterSchema.shape)
  .extend({
    /** 'true': count every match (however many), for the pager's "count exactly". */
    exactTotal: opt(z.enum(['true', 'false'])),
    /**
     * The id of the last row of page − 1, sent by the pager's Next: the page is then read by keyset
     * from that row (as cheap as page 1 however deep). Ignored on page 0 and when the row is not the
     * caller's; without it the page is read by offset.
     */
    after: opt(
      z
        .string()
        .trim()
        .regex(/^[1-9]\d{0,14}$/, 'row id'),
    ),
  })
  .superRefine(refuseReversed(BEGIN_END));
export type TxnQuery = z.infer<typeof txnQuerySchema>;

export const exportFormatSchema = z.object({ format: z.enum(['xlsx', 'csv']).default('xlsx') });
export const txnExportQuerySchema = txnFilterSchema.extend(exportFormatSchema.shape);

/** Transaction row (spec §3), plus merId, returnAmount, respMsg and settleState for the screen. */
export const txnRowSchema = z.object({
  id: z.number(),
  mrequest: z.object({ orderno: z.string(), originorderno: z.string().nullable(), orderCurrency: z.string(), orderAmount: z.string() }),
  currentTime: z.string(),
  gwResponse: z.string().nullable(),
  respMsg: z.string().nullable(),
  merId: z.string(),
  merName: z.string(),
  gwTranType: z.string(),
  gwAmount: z.string(),
  gwCurrency: z.string(),
  returnAmount: z.string(),
  paymentBrand: z.string().nullable(),
  paymentSchema: z.string(),
  settleFlag: z.string(),
  settleState: z.enum(['N', 'W', 'T', '']),
});
export type TxnRow = z.infer<typeof txnRowSchema>;

/** A page of /txn/list: totalExact false means "more than totalElements" (TXN_COUNT_BUDGET). */
export const txnPageSchema = z.object({ content: z.array(txnRowSchema), totalElements: z.number(), totalExact: z.boolean() });
export type TxnPage = z.infer<typeof txnPageSchema>;

export const txnTotalsSchema = z.array(z.object({ currency: z.string(), count: z.number(), amount: z.string(), net: z.string() }));
export type TxnTotals = z.infer<typeof txnTotalsSchema>;

export const moneyItemSchema = z.object({ currency: z.string(), amount: z.string() });

/** Transaction detail (spec §3): the gateway part, the request part (mrequest) and the blocks of §2. */
export const txnDetailSchema = z.object({
  id: z.number(),
  gwResponse: z.string().nullable(),
  respMsg: z.string().nullable(),
  currentTime: z.string(),
  gwAmount: z.string(),
  gwCurrency: z.string(),
  gwTranType: z.string(),
  gwGTransId: z.string(),
  /** The channel's own transaction (order) number. */
  gw_trans_id: z.string().nullable(),
  /** Settlement date. */
  gwDate: z.string().nullable(),
  gwReconFlag: z.string(),
  settleState: z.enum(['N', 'W', 'T', '']),
  paymentBrand: z.string().nullable(),
  merName: z.string(),
  msettleCurrency: z.string().nullable(),
  settlefeeAmount: z.array(moneyItemSchema),
  settlefee: z.array(moneyItemSchema),
  backResponseToG: z.object({ accNo: z.string().nullable(), respCode: z.string().nullable(), respMsg: z.string().nullable() }),
  backResponseToMerchant: z.object({ respCode: z.string().nullable(), respMsg: z.string().nullable(), orderNo: z.string(), amount: z.string(), currency: z.string() }),
  mrequest: z.object({
    version: z.string(),
    orderNum: z.string(),
    orderCurrency: z.string(),
    orderAmount: z.string(),
    returnAmount: z.string(),
    clientid: z.string(),
    merReserve: z.string().nullable(),
    storeName: z.string().nullable(),
    storeId: z.string().nullable(),
    paymentSchema: z.string(),
    subBrandCode: z.string().nullable(),
    originorderno: z.string().nullable(),
    backURL: z.string().nullable(),
    frontURL: z.string().nullable(),
  }),
  /** What may still be refunded (PURC with 00), in gwCurrency; '0' otherwise. */
  refundable: z.string(),
  /** The original purchase and all its refunds/voids (the associated orders block). */
  associated: z.array(txnRowSchema),
  shipping: z.object({ shipmentNo: z.string(), company: z.string(), shipDate: z.string(), status: z.string() }).nullable(),
});
export type TxnDetail = z.infer<typeof txnDetailSchema>;

/** POST /txn/refund (form). id = gateway transaction id; requestKey makes a repeat idempotent. */
export const refundBodySchema = z.object({
  id: textInput(64, { min: 1 }),
  amount: textInput(32, { min: 1 }),
  txnschema: text(32),
  requestKey: opt(
    z
      .string()
      .trim()
      .min(8)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/),
  ),
});
export const refundResultSchema = z.object({
  code: z.number(),
  msg: z.string(),
  refundId: z.number().optional(),
  refundOrderNo: z.string().optional(),
  gwResponse: z.string().nullable().optional(),
  returnAmount: z.string().optional(),
  /** code 5: the four-eyes request waiting for a second user's approval (issue 28). */
  approvalId: z.number().optional(),
});
export type RefundResult = z.infer<typeof refundResultSchema>;
/** data.code values of a refund refusal. */
export const RefundCode = { OK: 0, NOT_REFUNDABLE: 1, OVER_AMOUNT: 2, DECLINED: 3, KEY_REUSED: 4, APPROVAL_REQUIRED: 5, OVER_CAP: 6 } as const;

export const queryResultQuerySchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** /txn/settleList: the transactions behind a settlement row (settlement date in [beginDate, endDate]). */
export const settleFilterSchema = z
  .object({
    beginDate: date,
    endDate: date,
    busLine: textInput(16, { min: 1 }),
    setCur: z
      .string()
      .trim()
      .regex(/^[A-Z]{3}$/),
    clientid: z
      .string()
      .trim()
      .regex(/^\d{15}$/),
  })
  .superRefine(refuseReversed(BEGIN_END));
export const settleQuerySchema = pageQuerySchema.extend(settleFilterSchema.shape).superRefine(refuseReversed(BEGIN_END));
export const settleExportQuerySchema = settleFilterSchema.extend(exportFormatSchema.shape);
export const settleRowSchema = txnRowSchema.extend({
  settleDate: z.string().nullable(),
  settleCurrency: z.string().nullable(),
  settleAmount: z.string(),
  settleFee: z.string(),
  settleNet: z.string(),
});
export type SettleRow = z.infer<typeof settleRowSchema>;
export const settleSumSchema = z.object({ currency: z.string(), count: z.number(), settleAmount: z.string(), fee: z.string(), net: z.string() });

/** /txn/settleLogisticsList */
export const logisticsQuerySchema = pageQuerySchema
  .extend({
    merId: opt(
      z
        .string()
        .trim()
        .regex(/^\d{15}$/),
    ),
    orderNum: text(),
    shipmentNo: text(),
    beginDate: opt(date),
    endDate: opt(date),
  })
  .superRefine(refuseReversed(BEGIN_END));
export const logisticsRowSchema = z.object({
  id: z.number(),
  merId: z.string(),
  merName: z.string(),
  orderNo: z.string(),
  txnId: z.number().nullable(),
  shipmentNo: z.string(),
  company: z.string(),
  shipDate: z.string(),
  status: z.string(),
  updatedAt: z.string(),
});
export type LogisticsRow = z.infer<typeof logisticsRowSchema>;
export const rowErrorSchema = z.object({ row: z.number(), field: z.string(), reason: z.string() });
export type RowError = z.infer<typeof rowErrorSchema>;
export const logisticsImportResultSchema = z.object({ imported: z.number(), errors: z.array(rowErrorSchema) });

/** /txn/manualBlend: a statement matched against settled transactions. */
export const blendLineSchema = z.object({
  row: z.number(),
  orderNo: z.string(),
  currency: z.string(),
  statementAmount: z.string(),
  portalAmount: z.string().nullable(),
  reason: z.string(),
});
export const blendResultSchema = z.object({
  total: z.number(),
  matched: z.number(),
  missing: z.array(blendLineSchema),
  differing: z.array(blendLineSchema),
  notInStatement: z.array(blendLineSchema),
  errors: z.array(rowErrorSchema),
});
export type BlendResult = z.infer<typeof blendResultSchema>;

/**
 * GET /txn/takings (the phone home screen, issue 29): the takings of a period — successful
 * purchases less successful refunds and voids — per currency, per store and per payment brand.
 * Both ends required ('YYYY-MM-DD HH:mm:ss', platform zone, as the list's); at most MAX_RANGE_DAYS.
 */
export const takingsQuerySchema = z
  .object({
    beginDate: dateTime,
    endDate: dateTime,
    merId: opt(
      z
        .string()
        .trim()
        .regex(/^\d{15}$/, 'merchant id'),
    ),
  })
  .superRefine(refuseReversed(BEGIN_END));
export type TakingsQuery = z.infer<typeof takingsQuerySchema>;
/** count: successful purchases; amount: their sum less successful refunds and voids (decimal, the currency's exponent). */
const takingsFigures = { currency: z.string(), count: z.number(), amount: z.string() };
export const takingsSchema = z.object({
  totals: z.array(z.object(takingsFigures)),
  /** storeId null: payments taken without a store (online, pay by link). */
  stores: z.array(z.object({ storeId: z.string().nullable(), storeName: z.string().nullable(), ...takingsFigures })),
  /** brand null: rows without a brand. */
  brands: z.array(z.object({ brand: z.string().nullable(), ...takingsFigures })),
});
export type Takings = z.infer<typeof takingsSchema>;
