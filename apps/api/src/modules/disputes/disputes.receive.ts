import { Code } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { audit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { DISPUTE_KINDS, DISPUTE_STATES, type DisputeKind, type DisputeState } from './disputes.machine';
import { lockPurchaseFor, normalise, openMoney, transition, type Ctx, type DisputeRow } from './disputes.money';

/**
 * A dispute as a gateway reports it (provider API, daily file, sandbox, back office): new, a
 * change of state, or the outcome. Idempotent by `gwDisputeId`: the same content again answers
 * duplicate; a later state moves the dispute (through the state machine); other content differing
 * (purchase, kind, amount, reason) is a conflict.
 */
export interface DisputeNotice {
  gwDisputeId: string;
  /** The purchase, by its gateway transaction id. */
  gwTransId: string;
  kind: DisputeKind;
  state: DisputeState;
  reasonCode: string;
  /** Minor units of the purchase's currency. */
  amount: number;
  currency: string;
  deadline: Date;
  /**
   * When it arrived at the gateway (default: now; never later than now): its money is dated then —
   * a dispute of a day already settled (a daily file read the morning after) takes the late path.
   */
  openedAt?: Date;
}

export type ReceiveStatus = 'created' | 'updated' | 'duplicate';

export interface ReceiveOptions extends Ctx {
  /** Who reports: 'gateway:<connection>', 'sandbox', 'file:<connection>', 'operator:<name>'. */
  by: string;
  connectionId?: string | null;
  /** The merchants the reporter may report for (a connection's); undefined: any. */
  merchants?: string[];
}

export async function receiveDispute(q: Queryable, n: DisputeNotice, o: ReceiveOptions): Promise<{ status: ReceiveStatus; dispute: DisputeRow }> {
  if (!DISPUTE_KINDS.includes(n.kind) || !DISPUTE_STATES.includes(n.state)) throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'kind or state' }, 400);
  const existing = await byGwId(q, n.gwDisputeId, true);
  if (existing) return { status: await update(q, existing, n, o), dispute: (await byGwId(q, n.gwDisputeId)) ?? existing };
  // The purchase first (the lock every dispute and refund of it queues on), then the dispute row.
  const p = await lockPurchaseFor(q, { gwTransId: n.gwTransId }, o.merchants);
  if (!p) throw new AppError(Code.NOT_FOUND, 'disputePurchaseNotFound', { id: n.gwTransId }, 404, { field: 'gwTransId' });
  if (p.currency !== n.currency) throw new AppError(Code.BAD_REQUEST, 'disputeConflict', { id: n.gwDisputeId, field: 'currency' }, 400, { field: 'currency' });
  if (n.amount > p.amount) throw new AppError(Code.BAD_REQUEST, 'disputeAmountExceeds', {}, 400, { field: 'amount' });
  if (n.kind === 'pre_arbitration') {
    const { rows } = await q.query(`SELECT 1 FROM dispute WHERE purchase_id = $1 AND kind = 'chargeback' AND state = 'won'`, [p.id]);
    if (!rows.length) throw new AppError(Code.CONFLICT, 'disputePreArbNeedsWon', {}, 409, { field: 'kind' });
  }
  // Created open; a notice that arrives already decided walks the machine (its money too).
  const { rows } = await q.query<DisputeRow>(
    `INSERT INTO dispute (gw_dispute_id, connection_id, mer_id, purchase_id, kind, state, brand, reason_code, amount, currency,
                          refunded_before, deadline, opened_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'needs_response', $6, $7, $8, $9, $10, $11, $12, $12, $12)
     ON CONFLICT DO NOTHING RETURNING *`,
    [
      n.gwDisputeId,
      o.connectionId ?? null,
      p.mer_id,
      p.id,
      n.kind,
      (p.payment_brand ?? '').toLowerCase(),
      n.reasonCode,
      n.amount,
      n.currency,
      p.return_amount,
      n.deadline,
      n.openedAt && n.openedAt < o.now ? n.openedAt : o.now,
    ],
  );
  if (!rows[0]) {
    const again = await byGwId(q, n.gwDisputeId, true);
    if (again) return { status: await update(q, again, n, o), dispute: (await byGwId(q, n.gwDisputeId)) ?? again };
    throw new AppError(Code.CONFLICT, 'disputeAlreadyOpen', { kind: n.kind }, 409, { field: 'kind' });
  }
  let d = normalise(rows[0]);
  const arrived = n.openedAt && n.openedAt.getTime() < o.now.getTime() ? n.openedAt : o.now;
  await openMoney(q, d, p, { platformTz: o.platformTz, now: o.now, at: arrived });
  d = (await byGwId(q, n.gwDisputeId)) ?? d;
  await audit(q, {
    action: 'dispute.received',
    username: o.by,
    merId: d.mer_id,
    target: String(d.id),
    detail: { gwDisputeId: d.gw_dispute_id, kind: d.kind, reasonCode: d.reason_code, amount: d.amount, currency: d.currency, debit: d.debit_amount, purchase: n.gwTransId },
  });
  if (n.state !== 'needs_response') d = await walk(q, d, n.state, o);
  return { status: 'created', dispute: d };
}

/** Moves a dispute to a reported state through the machine's path (needs_response → under_review → won). */
async function walk(q: Queryable, d: DisputeRow, to: DisputeState, o: ReceiveOptions): Promise<DisputeRow> {
  let cur = d;
  const next = await transition(q, cur, to, 'gateway', o, o.by);
  cur = next;
  await audit(q, { action: `dispute.${to}`, username: o.by, merId: cur.mer_id, target: String(cur.id), detail: { from: d.state, to } });
  return cur;
}

async function update(q: Queryable, d: DisputeRow, n: DisputeNotice, o: ReceiveOptions): Promise<ReceiveStatus> {
  if (o.merchants && !o.merchants.includes(d.mer_id)) throw new AppError(Code.NOT_FOUND, 'disputeNotFound', {}, 404);
  const { rows } = await q.query<{ gw_trans_id: string }>('SELECT gw_trans_id FROM txn_key WHERE id = $1', [d.purchase_id]);
  const diff =
    rows[0]?.gw_trans_id !== n.gwTransId
      ? 'gwTransId'
      : d.kind !== n.kind
        ? 'kind'
        : d.amount !== n.amount
          ? 'amount'
          : d.currency !== n.currency
            ? 'currency'
            : d.reason_code !== n.reasonCode
              ? 'reasonCode'
              : null;
  if (diff) throw new AppError(Code.CONFLICT, 'disputeConflict', { id: n.gwDisputeId, field: diff }, 409, { field: diff });
  if (d.state === n.state) return 'duplicate';
  // A gateway repeating an older state after a later one (notifications out of order) changes nothing.
  const order = DISPUTE_STATES.indexOf(n.state) < DISPUTE_STATES.indexOf(d.state) && n.state === 'needs_response';
  if (order) return 'duplicate';
  await walk(q, d, n.state, o);
  if (n.deadline.getTime() !== d.deadline.getTime() && n.state === 'needs_response') {
    await q.query('UPDATE dispute SET deadline = $2 WHERE id = $1', [d.id, n.deadline]);
  }
  return 'updated';
}

export async function byGwId(q: Queryable, gwDisputeId: string, lock = false): Promise<DisputeRow | undefined> {
  const { rows } = await q.query<DisputeRow>(`SELECT * FROM dispute WHERE gw_dispute_id = $1${lock ? ' FOR UPDATE' : ''}`, [gwDisputeId]);
  return rows[0] && normalise(rows[0]);
}
