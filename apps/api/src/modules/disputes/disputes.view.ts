/** A dispute as the portal shows it: the filters, the view of a row, the row read in scope, who acts. */
import { Code, toDecimal, type Language } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { AppError } from '../../lib/errors';
import type { Deps, SessionUser } from '../../plugins/context';
import { daysBetween, platformDate } from '../payments';
import type { DisputeKind, DisputeState } from './disputes.machine';
import { normalise, type DisputeRow } from './disputes.money';
import { reasonOf, type EvidenceCategory } from './reason-codes';

export interface DisputeFilter {
  state?: DisputeState[];
  kind?: DisputeKind[];
  reasonCode?: string;
  brand?: string;
  merId?: string;
  amountMin?: number;
  amountMax?: number;
  /** Deadline on or before this day (the viewer's zone). */
  deadlineBefore?: string;
  /** Opened between (platform dates). */
  beginDate?: string;
  endDate?: string;
  page?: number;
  size?: number;
}

export interface DisputeView {
  id: number;
  gwDisputeId: string;
  merId: string;
  merName: string;
  kind: DisputeKind;
  state: DisputeState;
  brand: string;
  reasonCode: string;
  reason: string;
  reasonGroup: string;
  amount: string;
  currency: string;
  debitAmount: string;
  refundedBefore: string;
  deadline: string;
  /** Whole days from today to the deadline's day, in the viewer's zone (negative: passed). */
  daysLeft: number;
  openedAt: string;
  closedAt: string | null;
  sendState: string | null;
  purchaseId: number;
  purchaseGwTransId: string;
  purchaseOrderNo: string;
}

export const SELECT = `SELECT d.*, m.name AS mer_name, k.gw_trans_id AS p_gw, p.order_no AS p_order
  FROM dispute d JOIN merchant m ON m.mer_id = d.mer_id JOIN txn_key k ON k.id = d.purchase_id
  JOIN txn p ON p.id = d.purchase_id AND p.txn_time = k.txn_time`;

export type Joined = DisputeRow & { mer_name: string; p_gw: string; p_order: string };

/** Whole calendar days from today to the deadline's day, both in zone `tz` (DST-safe: dates, not hours). */
export const daysLeftOf = (now: Date, deadline: Date, tz: string): number => daysBetween(platformDate(now, tz), platformDate(deadline, tz));

export function viewOf(r: Joined, lang: Language, tz: string, now: Date): DisputeView {
  const d = normalise(r);
  const reason = reasonOf(d.brand, d.reason_code, lang);
  return {
    id: d.id,
    gwDisputeId: d.gw_dispute_id,
    merId: d.mer_id,
    merName: r.mer_name,
    kind: d.kind,
    state: d.state,
    brand: d.brand,
    reasonCode: d.reason_code,
    reason: reason.name,
    reasonGroup: reason.group,
    amount: toDecimal(d.amount, d.currency),
    currency: d.currency,
    debitAmount: toDecimal(d.debit_amount, d.currency),
    refundedBefore: toDecimal(d.refunded_before, d.currency),
    deadline: new Date(d.deadline).toISOString(),
    daysLeft: daysLeftOf(now, new Date(d.deadline), tz),
    openedAt: new Date(d.opened_at).toISOString(),
    closedAt: d.closed_at ? new Date(d.closed_at).toISOString() : null,
    sendState: d.send_state,
    purchaseId: d.purchase_id,
    purchaseGwTransId: r.p_gw,
    purchaseOrderNo: r.p_order,
  };
}

/** Who acts: a portal user, or an API key (its creator, its scope). */
export type Who = Pick<SessionUser, 'id' | 'username' | 'scope' | 'timeZone'>;

export const zoneOf = (deps: Deps, user?: Pick<SessionUser, 'timeZone'> | null): string => user?.timeZone || deps.config.platformTz;

export async function rowOf(q: Queryable, id: number, scope: string[], lock = false): Promise<Joined> {
  if (lock) await q.query('SELECT 1 FROM dispute WHERE id = $1 AND mer_id = ANY($2::text[]) FOR UPDATE', [id, scope]);
  const { rows } = await q.query<Joined>(`${SELECT} WHERE d.id = $1 AND d.mer_id = ANY($2::text[])`, [id, scope]);
  if (!rows[0]) throw new AppError(Code.NOT_FOUND, 'disputeNotFound', {}, 404);
  return rows[0];
}

export interface EvidenceView {
  id: number;
  category: EvidenceCategory;
  fileName: string;
  mime: string;
  size: number;
  sha256: string;
  uploadedAt: string;
  submitted: boolean;
}

export function assertAnswerable(r: DisputeRow, now: Date): void {
  if (r.state !== 'needs_response') throw new AppError(Code.CONFLICT, 'disputeNotOpen', {}, 409);
  if (new Date(r.deadline).getTime() <= now.getTime()) throw new AppError(Code.CONFLICT, 'disputeDeadlinePassed', {}, 409);
}

export interface Meta {
  ip?: string | null;
  userAgent?: string | null;
}
