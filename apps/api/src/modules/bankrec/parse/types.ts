/** What the statement parsers read (camt.053, MT940, CSV): the bank's own figures, in minor units. */
export type StatementFormat = 'camt053' | 'mt940' | 'csv';

export interface ParsedBalance {
  /** Signed minor units (a debit balance is negative). */
  amount: number;
  currency: string;
  /** YYYY-MM-DD, as the bank wrote it. */
  date: string;
  /** Where it is in the file (element path or `line N`). */
  at: string;
}

export interface ParsedEntry {
  /** Signed minor units: a credit (money in) is positive, a debit negative. */
  amount: number;
  currency: string;
  /** Booking date (camt BookgDt; MT940 entry date, else its value date; CSV the mapped date). */
  bookingDate: string;
  /** Value date when the bank gives one. */
  valueDate: string | null;
  /** The remitter's reference (camt EndToEndId / structured creditor ref / unstructured text; MT940 customer reference). */
  reference: string | null;
  /** The bank's own reference for the entry (camt AcctSvcrRef / NtryRef; MT940 bank reference). */
  bankRef: string | null;
  /** The other party's name when given. */
  counterparty: string | null;
  /** Free text (camt AddtlNtryInf and remittance lines; MT940 :86:). */
  description: string | null;
  reversal: boolean;
  /** Where it is in the file. */
  at: string;
}

export interface ParsedStatement {
  format: StatementFormat;
  /** The bank's statement id (camt Stmt/Id; MT940 :20: and :28C:; CSV: none, the content hash stands in). */
  statementId: string | null;
  /** The account (IBAN or the bank's number). */
  account: string;
  currency: string;
  opening: ParsedBalance | null;
  closing: ParsedBalance | null;
  fromDate: string | null;
  toDate: string | null;
  entries: ParsedEntry[];
  /** Entries left out because the bank marks them not booked (camt Sts PDNG / INFO). */
  skippedNotBooked: number;
  /** Where the statement starts in the file. */
  at: string;
}

/** The largest statement file accepted (bytes): 32 MiB, room for ~20,000 camt.053 entries. */
export const STATEMENT_MAX_BYTES = 32 * 1024 * 1024;
/** The most entries one file may carry. */
export const STATEMENT_MAX_ENTRIES = 100_000;
