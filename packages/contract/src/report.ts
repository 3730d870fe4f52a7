import { z } from 'zod';
import { pageQuerySchema } from './api';
import { MAX_RANGE_DAYS } from './txn';
import { blankToUndefined, isIsoDate, isoDate, optText } from './input';

/**
 * Reports contract (spec §2 Bill, Settlement/transfer, Daily summary by payment brand, Reserve
 * release; §3 rows; §5 ranges; §7 calls). Dates are 'YYYY-MM-DD' in the platform zone; money is a
 * decimal string in the exponent of the currency named beside it.
 */

/** Types the summary report's filter offers (spec §2). */
export const SUMMARY_TYPE_FILTERS = ['PURC', 'REFD', 'VOID', 'MANENTD', 'M-DEPOSIT', 'M-DEPOSIT-RELEASE', 'FEE_COLLECTION'] as const;
/** Every type a summary row may carry (the settling types plus the reserve pseudo types). */
export const SUMMARY_TYPES = [
  'PURC',
  'REFD',
  'VOID',
  'MANENTD',
  'DISPUTE',
  'FREEZE',
  'UNFREEZE',
  'PROFIT_INCOME',
  'PROFIT_OUTGO',
  'FEE_COLLECTION',
  'M-DEPOSIT',
  'M-DEPOSIT-RELEASE',
  // Issue 48: dispute credits and fees.
  'DISPUTE_REVERSAL',
  'DISPUTE_FEE',
] as const;

/** Pickers disable dates after today + this many days (spec §5, §9). */
export const REPORT_FUTURE_DAYS = 2;
/** A report export over more days than this, or more rows than EXPORT_SYNC_MAX_ROWS, is queued (lands in /report/file). */
export const EXPORT_SYNC_MAX_DAYS = 31;
export const EXPORT_SYNC_MAX_ROWS = 20000;

/**
 * True when 'YYYY-MM-DD' `end` lies more than three months after `begin`: the product's one reading
 * of "three months", MAX_RANGE_DAYS days (as the transaction list and the shared range picker).
 */
export function exceedsThreeMonths(begin: string, end: string): boolean {
  return (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${begin}T00:00:00Z`)) / 86_400_000 > MAX_RANGE_DAYS;
}

/** A real calendar date 'YYYY-MM-DD' (2026-02-30 is refused): the one parser of ./input. */
export const isCalendarDate = (s: string): boolean => isIsoDate(s);

const opt = blankToUndefined;
const date = isoDate;
const merId = z
  .string()
  .trim()
  .regex(/^\d{15}$/, 'merchant id');

/**
 * The report query (spec §3 "Transaction query … Reports add …"): settlement date range
 * beginDate/endDate, merchant, and the extra ranges. Every pair is optional in the schema; the
 * service says which ranges a report needs and checks order and the three-month rule.
 */
export const reportFilterSchema = z.object({
  beginDate: opt(date),
  endDate: opt(date),
  merId: opt(merId),
  remitBeginDate: opt(date),
  remitEndDate: opt(date),
  releaseBeginDate: opt(date),
  releaseEndDate: opt(date),
  transferBeginDate: opt(date),
  transferEndDate: opt(date),
  gwTranType: opt(z.enum(SUMMARY_TYPES)),
  /** Comma-joined brand codes (upgraded summary only; ignored by the old version). */
  paymentBrand: opt(
    z
      .string()
      .trim()
      .max(2000)
      .regex(/^[a-z0-9_]+(,[a-z0-9_]+)*$/, 'comma-joined brand codes'),
  ),
  timeZone: optText(40),
  userName: optText(128),
});
export type ReportFilter = z.infer<typeof reportFilterSchema>;
export const reportQuerySchema = pageQuerySchema.extend(reportFilterSchema.shape);
export type ReportQuery = z.infer<typeof reportQuerySchema>;
export const reportExportQuerySchema = reportFilterSchema.extend({
  format: z.enum(['xlsx', 'csv']).default('xlsx'),
  /** auto: a file for small exports, queued for large ranges; queue: always queued. */
  mode: z.enum(['auto', 'queue']).default('auto'),
});
export type ReportExportQuery = z.infer<typeof reportExportQuerySchema>;

/** Bill row (spec §3) plus reconSearchDate for the details link. */
export const billRowSchema = z.object({
  txnSetDate: z.string(),
  clientid: z.string(),
  merName: z.string(),
  instCodeBriefName: z.string(),
  merTxnSet: z.string(),
  reconSetAmount: z.string(),
  historyPendingAmount: z.string(),
  totalPendingAmount: z.string(),
  transAmount: z.string(),
  reconBusiness: z.string(),
  reconSearchDate: z.string(),
});
export type BillRow = z.infer<typeof billRowSchema>;

/** Settlement (transfer) row (spec §3) plus releasedAmount (reserve released into the row's day). */
export const transferRowSchema = z.object({
  txnSetDate: z.string(),
  clientid: z.string(),
  merName: z.string(),
  instCodeBriefName: z.string(),
  merTxnSet: z.string(),
  reconSetAmount: z.string(),
  servAmount: z.string(),
  releasedAmount: z.string(),
  realTransAmountBeforeTransFee: z.string(),
  tranFee: z.string(),
  realTransAmount: z.string(),
  tranThreshold: z.string(),
  transPeriod: z.string(),
  remitDate: z.string().nullable(),
  reconSearchDate: z.string(),
  reconBusiness: z.string(),
});
export type TransferRow = z.infer<typeof transferRowSchema>;

/** Summary row (spec §3). paymentBrand is the code ('' for the reserve rows); the old version leaves it out. */
export const summaryRowSchema = z.object({
  txnSetDate: z.string(),
  clientid: z.string(),
  merName: z.string(),
  instCodeBriefName: z.string(),
  paymentBrand: z.string().optional(),
  txnType: z.string(),
  txnCount: z.number(),
  merTxnCur: z.string(),
  merTxnAmount: z.string(),
  merMDRAmount: z.string(),
  merTxnSet: z.string(),
  txnSetAmount: z.string(),
  txnFee: z.string(),
});
export type SummaryRow = z.infer<typeof summaryRowSchema>;
/** The original (old-version) summary row: summed over brands, no brand column. */
export const summaryOldRowSchema = summaryRowSchema.omit({ paymentBrand: true });

/** Reserve release row (spec §3) plus its currency, business line code and whether it is released. */
export const reserveRowSchema = z.object({
  txnSetDate: z.string(),
  clientid: z.string(),
  merName: z.string(),
  business: z.string(),
  merTxnSet: z.string(),
  releaseAmount: z.string(),
  releaseDate: z.string(),
  transferDate: z.string().nullable(),
  released: z.boolean(),
});
export type ReserveRow = z.infer<typeof reserveRowSchema>;

/** Cash calendar of the dashboard: expected money per day and currency over the next days. */
export const cashCalendarQuerySchema = z.object({
  merId: opt(merId),
  days: z.coerce.number().int().min(1).max(90).default(30),
});
export const cashDaySchema = z.object({
  date: z.string(),
  currency: z.string(),
  /** Transfers already computed by the settlement run whose remit date is this day. */
  transfer: z.string(),
  /** Carried balances expected to be transferred on this day (the next transfer day). */
  projected: z.string(),
  /** Reserves due for release on this day. */
  release: z.string(),
});
/** A transfer the settlement run decided, with its id: it opens the payout proof (issue 49 §1). */
export const cashTransferSchema = z.object({
  /** The transfer's id (settlement date.merchant.businessLine.currency): /trail/transfer/{id}/proof. */
  id: z.string(),
  remitDate: z.string(),
  merId: z.string(),
  currency: z.string(),
  /** Amount sent to the bank (realTransAmount); per remit date and currency they sum to the day's `transfer`. */
  amount: z.string(),
});
export const cashCalendarSchema = z.object({
  from: z.string(),
  to: z.string(),
  currencies: z.array(z.string()),
  days: z.array(cashDaySchema),
  /** The decided transfers of the window (by remit date, then merchant), each opening its proof. */
  transfers: z.array(cashTransferSchema),
});
export type CashCalendar = z.infer<typeof cashCalendarSchema>;
export type CashDay = z.infer<typeof cashDaySchema>;
export type CashTransfer = z.infer<typeof cashTransferSchema>;
