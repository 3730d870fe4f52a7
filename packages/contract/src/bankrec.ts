import { z } from 'zod';
import { blankToUndefined, isoDate, textInput } from './input';

/** Bank statements and their matching to transfers (issue 49 §2, decision 062). */

const merIdInput = z
  .string()
  .trim()
  .regex(/^\d{15}$/, 'merchant id');

export const BANK_CSV_DATE_FORMATS = ['YYYY-MM-DD', 'DD.MM.YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY', 'YYYYMMDD'] as const;
const column = textInput(80);
const optColumn = z.preprocess((v) => (v === '' || v === undefined ? null : v), textInput(80).nullable());

/** A merchant's CSV column mapping: which header names hold what, the decimal mark, the date layout. */
export const bankCsvMappingSchema = z.strictObject({
  date: column,
  amount: column,
  currency: optColumn,
  reference: optColumn,
  counterparty: optColumn,
  description: optColumn,
  defaultCurrency: z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z
      .string()
      .trim()
      .regex(/^[A-Z]{3}$/, 'currency code')
      .nullable(),
  ),
  decimal: z.enum(['.', ',']),
  dateFormat: z.enum(BANK_CSV_DATE_FORMATS),
  delimiter: z.enum([',', ';', '\t']),
  account: textInput(64),
});
export type BankCsvMapping = z.infer<typeof bankCsvMappingSchema>;
/** The mapping as answered (no input coercion). */
export const bankCsvMappingOutSchema = z.object({
  date: z.string(),
  amount: z.string(),
  currency: z.string().nullable(),
  reference: z.string().nullable(),
  counterparty: z.string().nullable(),
  description: z.string().nullable(),
  defaultCurrency: z.string().nullable(),
  decimal: z.enum(['.', ',']),
  dateFormat: z.enum(BANK_CSV_DATE_FORMATS),
  delimiter: z.enum([',', ';', '\t']),
  account: z.string(),
});
export const bankCsvMappingSaveSchema = bankCsvMappingSchema.extend({ merId: merIdInput });
export const bankMerQuerySchema = z.strictObject({ merId: blankToUndefined(merIdInput) });

export const bankStatementQuerySchema = z.strictObject({
  merId: blankToUndefined(merIdInput),
  page: z.coerce.number().int().min(0).max(10_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

/** A balance problem the uploader accepted (the refusal's message key and figures). */
export const bankBalanceNoteSchema = z.object({ key: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])), text: z.string() });

export const bankStatementRowSchema = z.object({
  id: z.number(),
  merId: z.string(),
  format: z.enum(['camt053', 'mt940', 'csv']),
  stmtRef: z.string(),
  account: z.string(),
  currency: z.string(),
  fromDate: z.string().nullable(),
  toDate: z.string().nullable(),
  opening: z.string().nullable().describe('decimal, the account currency'),
  closing: z.string().nullable(),
  balanceNote: bankBalanceNoteSchema.nullable(),
  fileName: z.string(),
  entryCount: z.number(),
  addedCount: z.number().describe('entries new to the portal (the rest were on an overlapping statement already)'),
  credits: z.number(),
  matched: z.number(),
  uploadedBy: z.string().nullable(),
  uploadedAt: z.string().describe("the user's zone"),
});
export type BankStatementRow = z.infer<typeof bankStatementRowSchema>;

export const bankImportResultSchema = z.object({
  statements: z.array(
    z.object({
      id: z.number().nullable(),
      stmtRef: z.string(),
      outcome: z.enum(['imported', 'duplicate']),
      entries: z.number(),
      added: z.number(),
      overlapping: z.number(),
      balanceNote: bankBalanceNoteSchema.nullable(),
    }),
  ),
  proposed: z.number().describe('matches the matcher proposed after the import'),
});
export type BankImportResult = z.infer<typeof bankImportResultSchema>;

export const bankMatchingQuerySchema = z.strictObject({
  merId: blankToUndefined(merIdInput),
  beginDate: isoDate,
  endDate: isoDate,
});

export const bankEntrySchema = z.object({
  id: z.number(),
  statementId: z.number(),
  bookingDate: z.string(),
  amount: z.string(),
  currency: z.string(),
  reference: z.string().nullable(),
  counterparty: z.string().nullable(),
  description: z.string().nullable(),
});
export type BankEntry = z.infer<typeof bankEntrySchema>;

export const bankTransferSchema = z.object({
  id: z.string().describe('date.merchant.businessLine.currency (as /v1/transfers)'),
  merId: z.string(),
  busLine: z.string(),
  txnSetDate: z.string(),
  remitDate: z.string(),
  amount: z.string().describe('realTransAmount: what was sent to the bank'),
  currency: z.string(),
});
export type BankTransfer = z.infer<typeof bankTransferSchema>;

export const bankWhySchema = z.object({
  code: z.enum(['amountOff', 'dateOutside', 'referenceDiffers', 'currencyDiffers', 'feeTooLarge']),
  text: z.string().describe("the reason in the caller's language"),
});

export const bankMatchSchema = z.object({
  id: z.number(),
  kind: z.enum(['exact', 'fee', 'batch', 'split', 'manual']),
  state: z.enum(['proposed', 'confirmed']),
  currency: z.string(),
  credit: z.string(),
  transfer: z.string(),
  fee: z.string(),
  byReference: z.boolean(),
  confirmedBy: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  entries: z.array(bankEntrySchema),
  transfers: z.array(bankTransferSchema),
});
export type BankMatch = z.infer<typeof bankMatchSchema>;

export const bankMatchingSchema = z.object({
  matches: z.array(bankMatchSchema),
  unmatchedCredits: z.array(z.object({ entry: bankEntrySchema, nearest: z.string().nullable(), why: z.array(bankWhySchema) })),
  transfersWithoutCredit: z.array(z.object({ transfer: bankTransferSchema, nearest: z.number().nullable(), why: z.array(bankWhySchema) })),
});
export type BankMatching = z.infer<typeof bankMatchingSchema>;

export const bankMatchIdSchema = z.strictObject({ id: z.coerce.number().int().positive() });
export const bankBulkConfirmSchema = z.strictObject({ ids: z.array(z.number().int().positive()).min(1).max(1000) });
export const bankManualMatchSchema = z.strictObject({
  entryIds: z.array(z.number().int().positive()).min(1).max(20),
  transferIds: z
    .array(z.string().regex(/^\d{4}-\d\d-\d\d\.\d{15}\.[A-Z0-9_]{1,20}\.[A-Z]{3}$/))
    .min(1)
    .max(20),
});
