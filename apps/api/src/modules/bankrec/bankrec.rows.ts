/** The rows of bank statements, entries and transfers as read, and the ids and shapes the matcher takes. */
import type { Credit, Transfer } from './match';

export interface StatementDbRow {
  id: number;
  mer_id: string;
  format: 'camt053' | 'mt940' | 'csv';
  stmt_ref: string;
  account: string;
  currency: string;
  from_date: string | null;
  to_date: string | null;
  opening_minor: string | null;
  closing_minor: string | null;
  balance_note: { key: string; params: Record<string, string | number>; text: string } | null;
  file_name: string;
  entry_count: number;
  added_count: number;
  uploaded_name: string | null;
  created_at: Date;
  credits: number;
  matched: number;
}

export interface EntryDbRow {
  id: number;
  mer_id: string;
  statement_id: number;
  booking_date: string;
  amount_minor: string;
  currency: string;
  reference: string | null;
  counterparty: string | null;
  description: string | null;
}

export interface TransferDbRow {
  mer_id: string;
  bus_line: string;
  set_cur: string;
  txn_set_date: string;
  remit_date: string;
  real_trans_amount: string;
}

export interface NewEntry {
  fingerprint: string;
  bookingDate: string;
  valueDate: string | null;
  amount: number;
  currency: string;
  reference: string | null;
  bankRef: string | null;
  counterparty: string | null;
  description: string | null;
  reversal: boolean;
}

export const D = (col: string) => `to_char(${col}, 'YYYY-MM-DD')`;

export const transferIdOf = (t: Pick<TransferDbRow, 'mer_id' | 'bus_line' | 'set_cur' | 'txn_set_date'>) => `${t.txn_set_date}.${t.mer_id}.${t.bus_line}.${t.set_cur}`;
export function keyOfTransferId(id: string) {
  const m = /^(\d{4}-\d\d-\d\d)\.(\d{15})\.([A-Z0-9_]{1,20})\.([A-Z]{3})$/.exec(id);
  return m ? { date: m[1], merId: m[2], busLine: m[3], setCur: m[4] } : null;
}
export const toTransfer = (t: TransferDbRow): Transfer => ({ id: transferIdOf(t), amount: Number(t.real_trans_amount), currency: t.set_cur, remitDate: t.remit_date });
export const toCredit = (e: EntryDbRow): Credit => ({
  id: Number(e.id),
  amount: Number(e.amount_minor),
  currency: e.currency,
  date: e.booking_date,
  reference: e.reference,
  description: e.description,
});
