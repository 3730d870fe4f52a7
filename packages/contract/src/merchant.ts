import { z } from 'zod';
import { textInput } from './input';
import { pageQuerySchema } from './api';
import { isCalendarDate } from './report';

/**
 * Merchant list and detail (spec §6 Merchant, §7 /merchant*). Money is a decimal string in the
 * exponent of the currency named beside it; dates 'YYYY-MM-DD', times 'YYYY-MM-DD HH:mm:ss' in the
 * platform zone. Bank account numbers leave the server masked to their last four digits.
 */

export const MERCHANT_ATTRIBUTES = ['GROUP', 'SUB', 'INDEPENDENT'] as const;
export type MerchantAttribute = (typeof MERCHANT_ATTRIBUTES)[number];

/** Text without control characters, at most `max` characters (code points): the strict primitive of input.ts. */
const text = (max: number) => textInput(max);

const MER_ID_RE = /^\d{15}$/;
export const merIdSchema = z.string().regex(MER_ID_RE, 'merId: 15 digits');

export const merchantListQuerySchema = pageQuerySchema.extend({
  /** Merchant id or part of the name. */
  keyword: z.preprocess((v) => (v === '' ? undefined : v), text(60).optional()),
  attribute: z.preprocess((v) => (v === '' ? undefined : v), z.enum(MERCHANT_ATTRIBUTES).optional()),
});
export type MerchantListQuery = z.infer<typeof merchantListQuerySchema>;

export const merchantListRowSchema = z.object({
  id: z.string(),
  merId: z.string(),
  merName: z.string(),
  attribute: z.enum(MERCHANT_ATTRIBUTES),
  parentId: z.string().nullable(),
  /** ENABLED, LOCKED or DISABLED. */
  status: z.enum(['ENABLED', 'LOCKED', 'DISABLED']),
  defaultCurrency: z.string(),
  settleCurrency: z.string(),
  /** In the default currency; null = no limit. */
  dailyLimit: z.string().nullable(),
  approvalStatus: z.string(),
  approvedAt: z.string().nullable(),
});
export type MerchantListRow = z.infer<typeof merchantListRowSchema>;

const contactSchema = z.object({ name: z.string().nullable(), email: z.string().nullable(), tel: z.string().nullable() });

export const merchantDetailSchema = merchantListRowSchema.extend({
  webStoreName: z.string().nullable(),
  corporationName: z.string().nullable(),
  companyAddress: z.string().nullable(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  postcode: z.string().nullable(),
  mcc: z.string().nullable(),
  legalRegNo: z.string().nullable(),
  merchantUrl: z.string().nullable(),
  applicationDate: z.string().nullable(),
  locked: z.boolean(),
  acquirer: z.string().nullable(),
  contractor: z.number(),
  /** Security deposit agreed in the contract, in the settlement currency. */
  deposit: z.string(),
  channels: z.array(z.string()),
  currencies: z.array(z.string()),
  principal: contactSchema,
  operation: contactSchema,
  /** Transfer threshold, fee and period per business line (from the fee schedule). */
  transfer: z.array(z.object({ busLine: z.string(), currency: z.string(), threshold: z.string(), fee: z.string(), period: z.string() })),
});
export type MerchantDetail = z.infer<typeof merchantDetailSchema>;

export const merIdQuerySchema = z.object({ merId: merIdSchema });

export const merchantFeeRowSchema = z.object({
  id: z.string(),
  busLine: z.string(),
  /** The merchant's enabled channels in this business line. */
  channels: z.array(z.string()),
  /** MDR in percent, two decimals ('2.50'). */
  rate: z.string(),
  rateBp: z.number(),
  fixedFee: z.string(),
  currency: z.string(),
  cycleDays: z.number(),
  reserveRate: z.string(),
  reserveHoldDays: z.number(),
  effectiveFrom: z.string().nullable(),
  effectiveTo: z.string().nullable(),
});
export type MerchantFeeRow = z.infer<typeof merchantFeeRowSchema>;

/**
 * MERCHANT_APPROVAL: waiting for a second merchant user (four eyes, decision 049), not yet sent to the
 * provider; MERCHANT_REJECTED / EXPIRED: closed there. PENDING: at the provider's back office.
 */
export const BANK_REQUEST_STATUSES = ['MERCHANT_APPROVAL', 'MERCHANT_REJECTED', 'EXPIRED', 'PENDING', 'APPROVED', 'REJECTED'] as const;

export const bankRequestSchema = z.object({
  id: z.number(),
  status: z.enum(BANK_REQUEST_STATUSES),
  beneficiaryBank: z.string(),
  swiftCode: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
  currency: z.string(),
  country: z.string(),
  documentName: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The merchant's four-eyes request holding it (decision 049), else null. */
  approvalId: z.number().nullable(),
});
export type BankRequest = z.infer<typeof bankRequestSchema>;

export const merchantBankRowSchema = z.object({
  id: z.number(),
  beneficiaryBank: z.string(),
  swiftCode: z.string(),
  bankAddress: z.string().nullable(),
  accountName: z.string(),
  /** Masked: '•••• 1234'. */
  accountNumber: z.string(),
  country: z.string(),
  currency: z.string(),
  isDefault: z.boolean(),
});
export type MerchantBankRow = z.infer<typeof merchantBankRowSchema>;
export const merchantBankListSchema = z.object({
  content: z.array(merchantBankRowSchema),
  totalElements: z.number(),
  /** Change requests of this merchant, newest first (the pending one, if any, first). */
  requests: z.array(bankRequestSchema),
});

/** The fields of a bank-account change request (multipart, with a `document` file). */
export const SWIFT_RE = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
export const bankChangeFieldsSchema = z.object({
  merId: merIdSchema,
  /** The account replaced; empty = a new account. */
  accountId: z.preprocess((v) => (v === '' || v == null ? undefined : v), z.coerce.number().int().positive().optional()),
  beneficiaryBank: text(120).pipe(z.string().min(2)),
  swiftCode: z.string().trim().toUpperCase().regex(SWIFT_RE, 'swiftCode'),
  bankAddress: text(200).optional(),
  accountName: text(120).pipe(z.string().min(2)),
  accountNumber: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{6,34}$/, 'accountNumber'),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'country'),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'currency'),
});
export type BankChangeFields = z.infer<typeof bankChangeFieldsSchema>;
/** Document types and size accepted with a bank change request. */
export const BANK_DOC_TYPES = ['pdf', 'png', 'jpg', 'jpeg'] as const;
export const BANK_DOC_MAX_BYTES = 5 * 1024 * 1024;

export const depositDetailSchema = z.object({
  merId: z.string(),
  lines: z.array(
    z.object({
      busLine: z.string(),
      currency: z.string(),
      reserveRate: z.string(),
      reserveHoldDays: z.number(),
      held: z.string(),
      released: z.string(),
      /** held − released (I4). */
      balance: z.string(),
    }),
  ),
  /** Reserve rows not released yet, soonest first (the reserve report's rows). */
  nextReleases: z.array(z.object({ txnSetDate: z.string(), busLine: z.string(), currency: z.string(), amount: z.string(), releaseDate: z.string() })),
});
export type DepositDetail = z.infer<typeof depositDetailSchema>;

/** /txn/settleDetail: settlement batches (one settlement row: date, merchant, business line, currency). */
/** A real calendar date 'yyyy-MM-dd' (2026-02-30 is refused). */
const realDate = z.string().refine(isCalendarDate, 'yyyy-MM-dd');
const optDate = z.preprocess((v) => (v === '' ? undefined : v), realDate.optional());
export const settleBatchQuerySchema = pageQuerySchema.extend({
  beginDate: realDate,
  endDate: realDate,
  merId: z.preprocess((v) => (v === '' ? undefined : v), merIdSchema.optional()),
  busLine: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[A-Z0-9_]{1,20}$/, 'busLine')
      .optional(),
  ),
  setCur: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[A-Z]{3}$/, 'setCur')
      .optional(),
  ),
  remitDate: optDate,
});
export type SettleBatchQuery = z.infer<typeof settleBatchQuerySchema>;

export const settleBatchRowSchema = z.object({
  id: z.string(),
  txnSetDate: z.string(),
  clientid: z.string(),
  merName: z.string(),
  reconBusiness: z.string(),
  merTxnSet: z.string(),
  txnCount: z.number(),
  /** Σ signed converted amounts of the batch's transactions. */
  settleAmount: z.string(),
  fee: z.string(),
  /** settleAmount − fee. */
  reconSetAmount: z.string(),
  servAmount: z.string(),
  releasedAmount: z.string(),
  netAmount: z.string(),
  historyPendingAmount: z.string(),
  realTransAmountBeforeTransFee: z.string(),
  tranFee: z.string(),
  realTransAmount: z.string(),
  totalPendingAmount: z.string(),
  remitDate: z.string().nullable(),
  reconSearchDate: z.string(),
});
export type SettleBatchRow = z.infer<typeof settleBatchRowSchema>;

export const settleStatementQuerySchema = z.object({
  date: realDate,
  merId: merIdSchema,
  busLine: z.string().regex(/^[A-Z0-9_]{1,20}$/, 'busLine'),
  setCur: z.string().regex(/^[A-Z]{3}$/, 'setCur'),
  format: z.enum(['pdf', 'csv']).default('pdf'),
});
