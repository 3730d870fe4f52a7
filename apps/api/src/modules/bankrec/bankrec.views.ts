/** What the bankrec services share: the audit actions, the merchant a call acts for, and the wire shapes of entries, transfers and matches. */
import type { BankEntry, BankMatch, BankTransfer } from '@portal/contract';
import type { SessionUser } from '../../plugins/context';
import { notFound } from '../../lib/errors';
import { formatAt as formatInZone, type Zone } from './time';
import { minorToText } from './parse/amount';
import * as repo from './bankrec.repo';

/** Audit actions of bank statements and matching. */
export const BankAudit = {
  importStatement: 'bankrec.statement.import',
  refuseStatement: 'bankrec.statement.refused',
  confirm: 'bankrec.match.confirm',
  undo: 'bankrec.match.undo',
  dismiss: 'bankrec.match.dismiss',
  manual: 'bankrec.match.manual',
  csvMapping: 'bankrec.csv_mapping',
} as const;

export interface Meta {
  ip?: string;
  userAgent?: string;
}

export const money = (minor: number | string, cur: string) => minorToText(Number(minor), cur);
export const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The merchant a call acts for: the one asked for when in scope (else absent), or the caller's own. */
export function merchantOf(user: SessionUser, merId: string | undefined): string {
  const m = merId ?? user.merId;
  if (!user.scope.includes(m)) throw notFound();
  return m;
}
export const merchantsOf = (user: SessionUser, merId: string | undefined) => (merId ? (user.scope.includes(merId) ? [merId] : []) : user.scope);

export const entryOut = (e: repo.EntryDbRow): BankEntry => ({
  id: Number(e.id),
  statementId: Number(e.statement_id),
  bookingDate: e.booking_date,
  amount: money(e.amount_minor, e.currency),
  currency: e.currency,
  reference: e.reference,
  counterparty: e.counterparty,
  description: e.description,
});
export const transferOut = (x: repo.TransferDbRow): BankTransfer => ({
  id: repo.transferIdOf(x),
  merId: x.mer_id,
  busLine: x.bus_line,
  txnSetDate: x.txn_set_date,
  remitDate: x.remit_date,
  amount: money(x.real_trans_amount, x.set_cur),
  currency: x.set_cur,
});
export type MatchWithParts = Awaited<ReturnType<typeof repo.matchesById>>[number];
export const matchOut = (m: MatchWithParts, zone: Zone): BankMatch => ({
  id: m.id,
  kind: m.kind as BankMatch['kind'],
  state: m.state,
  currency: m.currency,
  credit: money(m.credit_minor, m.currency),
  transfer: money(m.transfer_minor, m.currency),
  fee: money(m.fee_minor, m.currency),
  byReference: m.by_reference,
  confirmedBy: m.confirmed_by,
  confirmedAt: m.confirmed_at ? formatInZone(m.confirmed_at, zone) : null,
  entries: m.entries.map(entryOut),
  transfers: m.transfers.map(transferOut),
});

export const detailOf = (m: MatchWithParts) => ({
  kind: m.kind,
  currency: m.currency,
  credit: m.credit_minor,
  transfer: m.transfer_minor,
  fee: m.fee_minor,
  entries: m.entries.map((e) => Number(e.id)),
  transfers: m.transfers.map(repo.transferIdOf),
});
