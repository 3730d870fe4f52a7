/** The trail module's wire shapes (issue 49): the payout proof and its rows, the order timeline. */
import { z } from 'zod';

const money = z.string().describe("decimal string in the currency's exponent, signed: its contribution to the deposit");

export const transferIdParam = z.strictObject({ id: z.string().max(64).describe('date.merchant.businessLine.currency (as /v1/transfers)') });

export const proofTransferSchema = z.object({
  id: z.string(),
  merId: z.string(),
  merName: z.string(),
  busLine: z.string(),
  currency: z.string().describe('settlement currency: every amount of the proof is in it'),
  settleFrom: z.string().describe('first settlement date the transfer carries'),
  settleTo: z.string().describe('the settlement date of the transfer'),
  remitDate: z.string().nullable(),
  reconSetAmount: z.string(),
  servAmount: z.string(),
  releasedAmount: z.string(),
  beforeFee: z.string(),
  tranFee: z.string(),
  amount: z.string().describe("amount sent to the bank (the transfer report's realTransAmount)"),
});

export const proofLineSchema = z.object({
  key: z.string().describe("opens the line's rows: /proof/rows?line=key"),
  source: z.string(),
  part: z.string(),
  label: z.string(),
  sign: z.union([z.literal(1), z.literal(-1), z.literal(0)]),
  count: z.number(),
  amount: money,
  txnCurrency: z.string().optional(),
  txnAmount: z.string().optional(),
  rateMin: z.string().optional(),
  rateMax: z.string().optional(),
});

export const proofSchema = z.object({
  transfer: proofTransferSchema,
  lines: z.array(proofLineSchema),
  total: money.describe('Σ of the lines'),
  balanced: z.boolean().describe('Σ of the lines equals the transfer'),
});

export const proofRowSchema = z.object({
  kind: z.enum(['txn', 'reserve', 'settlement']),
  txnId: z.string().nullable(),
  ref: z.string(),
  day: z.string().describe('settlement day the row counts on'),
  txnDate: z.string().nullable(),
  txnTime: z.string().nullable(),
  brand: z.string().nullable(),
  type: z.string().nullable(),
  txnCurrency: z.string().nullable(),
  txnAmount: z.string().nullable(),
  rate: z.string().nullable(),
  amount: money,
  late: z.boolean().describe('settled later than its cycle: shown on the day it settled'),
});

export const proofRowsQuerySchema = z.strictObject({
  line: z.string().min(1).max(80),
  page: z.coerce.number().int().min(0).max(100000).default(0),
  size: z.coerce
    .number()
    .int()
    .refine((n) => [10, 20, 50, 100].includes(n), { message: 'size must be 10, 20, 50 or 100' })
    .default(20),
});

export const proofRowsSchema = z.object({
  line: z.object({ key: z.string(), label: z.string(), amount: money }),
  content: z.array(proofRowSchema),
  totalElements: z.number(),
  sum: money.describe("Σ of all the line's rows (the total row)"),
});

export const proofExportQuerySchema = z.strictObject({
  format: z.enum(['csv', 'pdf']).default('csv'),
  timeZone: z.string().max(64).optional().describe("IANA zone the times are shown in (default: the user's)"),
});

export const orderSearchQuerySchema = z
  .strictObject({
    q: z.string().trim().min(3).max(254).optional().describe('order number, gateway id, channel order number, pay-link / in-store order or invoice id, buyer e-mail'),
    last4: z
      .string()
      .regex(/^\d{4}$/)
      .optional(),
    amount: z
      .string()
      .regex(/^\d{1,12}(\.\d{1,3})?$/)
      .optional(),
    date: z
      .string()
      .regex(/^\d{4}-\d\d-\d\d$/)
      .refine((d) => !Number.isNaN(Date.parse(d)), { message: 'not a date' })
      .optional(),
  })
  .refine((x) => !!x.q || (!!x.last4 && !!x.amount && !!x.date), { message: 'give a reference, or card last 4 + amount + date' });

export const orderHitSchema = z.object({
  merId: z.string(),
  orderNo: z.string(),
  at: z.string().nullable(),
  currency: z.string().nullable(),
  amount: z.string().nullable(),
  buyerEmail: z.string().nullable(),
});

export const timelineQuerySchema = z.strictObject({
  merId: z.string().regex(/^\d{15}$/),
  no: z.string().min(1).max(64).describe("the buyer order's number"),
});

export const timelineSchema = z.object({
  merId: z.string(),
  orderNo: z.string(),
  events: z.array(
    z.object({
      source: z.string(),
      at: z.string(),
      day: z.string().nullable(),
      kind: z.string(),
      actor: z.string().nullable(),
      ref: z.string().nullable(),
      txnId: z.string().nullable(),
      currency: z.string().nullable(),
      amount: z.string().nullable(),
      status: z.string().nullable(),
      transferId: z.string().nullable().describe("opens the transfer's proof"),
    }),
  ),
});
