import { Code, CURRENCY_EXPONENT } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { AppError } from '../../lib/errors';
import { ingestTransaction, platformDate } from '../payments';
import { canMove, FINAL_STATES, movesMoney, OPEN_STATES, type Actor, type DisputeKind, type DisputeState } from './disputes.machine';

/**
 * The money of disputes (issue 48, docs/disputes.md "Money"): every movement is a ledger row
 * written through the one ingestion path — DISPUTE (the chargeback's debit, transaction currency,
 * converted at settlement as its purchase was), DISPUTE_REVERSAL (a won dispute's credit back),
 * DISPUTE_FEE (the fee of the schedule in force on the day it arrives, settlement currency) —,
 * dated the moment it arrives, so the settlement run of that day (or the late path, when the day
 * has already been run) takes it, and recorded in dispute_movement with its amount in settlement
 * currency. Every function here runs inside the caller's transaction.
 */

export interface DisputeRow {
  id: number;
  gw_dispute_id: string;
  connection_id: number | null;
  mer_id: string;
  purchase_id: number;
  kind: DisputeKind;
  state: DisputeState;
  brand: string;
  reason_code: string;
  amount: number;
  currency: string;
  debit_amount: number;
  refunded_before: number;
  deadline: Date;
  opened_at: Date;
  closed_at: Date | null;
  statement: string | null;
  submitted_at: Date | null;
  accepted_at: Date | null;
  outcome_by: string | null;
  send_state: string | null;
  version: number;
}

export interface PurchaseForDispute {
  id: number;
  gw_trans_id: string;
  mer_id: string;
  order_no: string;
  amount: number;
  return_amount: number;
  disputed_amount: number;
  currency: string;
  payment_schema: string;
  payment_brand: string | null;
  bus_line: string;
  fx_rate: string | null;
  settle_currency: string | null;
  merchant_settle_currency: string;
  txn_time: Date;
}

export interface Ctx {
  platformTz: string;
  now: Date;
  /** When the money moves (the ledger rows' time): default now; earlier for a dispute reported late. */
  at?: Date;
}

/** The purchase, row-locked: a dispute's debit and a refund of the same purchase queue here. */
export async function lockPurchaseFor(q: Queryable, where: { id?: number; gwTransId?: string }, merIds?: string[]): Promise<PurchaseForDispute | undefined> {
  const cond = where.id !== undefined ? 't.id = $1' : 't.gw_trans_id = $1';
  const { rows } = await q.query<PurchaseForDispute>(
    `SELECT t.id::float8 AS id, t.gw_trans_id, t.mer_id, t.order_no, t.amount::float8 AS amount, t.return_amount::float8 AS return_amount,
            t.disputed_amount::float8 AS disputed_amount, t.currency::text AS currency, t.payment_schema, t.payment_brand, t.bus_line,
            t.fx_rate::text AS fx_rate, t.settle_currency::text AS settle_currency, m.settle_currency::text AS merchant_settle_currency, t.txn_time
       FROM txn t JOIN merchant m ON m.mer_id = t.mer_id
      WHERE ${cond} AND t.tran_type = 'PURC' AND t.gw_response = '00' ${merIds ? 'AND t.mer_id = ANY($2::text[])' : ''}
        FOR UPDATE OF t`,
    merIds ? [where.id ?? where.gwTransId, merIds] : [where.id ?? where.gwTransId],
  );
  return rows[0];
}

/** The dispute fee in force on `date` for the merchant's business line (dated schedule, else the current one, else 0). */
export async function disputeFeeOn(q: Queryable, merId: string, busLine: string, date: string): Promise<number> {
  const { rows } = await q.query<{ fee: string }>(
    `SELECT coalesce(
       (SELECT dispute_fee FROM merchant_fee_schedule WHERE mer_id = $1 AND bus_line = $2 AND effective_from <= $3::date ORDER BY effective_from DESC LIMIT 1),
       (SELECT dispute_fee FROM merchant_fee WHERE mer_id = $1 AND bus_line = $2), 0)::text AS fee`,
    [merId, busLine, date],
  );
  return Number(rows[0].fee);
}

/** `amount` of the purchase's currency in settlement currency, at the purchase's rate (null: not settled yet). */
async function convertAsPurchase(q: Queryable, p: PurchaseForDispute, amount: number): Promise<number> {
  if (p.currency === p.merchant_settle_currency) return amount;
  if (!p.fx_rate || !p.settle_currency) return 0; // settled at the day's rate; the run writes the exact amount
  const { rows } = await q.query<{ v: string }>(`SELECT round_half_even($1::bigint * $2::numeric * (10::numeric ^ ($4::int - $3::int)))::text AS v`, [
    amount,
    p.fx_rate,
    exponent(p.currency),
    exponent(p.settle_currency),
  ]);
  return Number(rows[0].v);
}

const exponent = (c: string) => CURRENCY_EXPONENT[c.trim()] ?? 2;

type MovementKind = 'debit' | 'credit' | 'fee';
const TYPE_OF: Record<MovementKind, string> = { debit: 'DISPUTE', credit: 'DISPUTE_REVERSAL', fee: 'DISPUTE_FEE' };

async function move(q: Queryable, d: DisputeRow, p: PurchaseForDispute, kind: MovementKind, amount: number, ctx: Ctx): Promise<void> {
  if (amount <= 0) return;
  const fee = kind === 'fee';
  const ing = await ingestTransaction(
    q,
    {
      merId: d.mer_id,
      orderNo: `DSP${d.id}-${kind === 'debit' ? 'D' : kind === 'credit' ? 'C' : 'F'}${d.version}`,
      tranType: TYPE_OF[kind],
      amount,
      currency: fee ? p.merchant_settle_currency : p.currency,
      paymentSchema: p.payment_schema,
      paymentBrand: p.payment_brand,
      gwResponse: '00',
      respMsg: `dispute ${d.gw_dispute_id}`,
      txnTime: ctx.at ?? ctx.now,
      originTxnId: p.id,
      source: 'gateway',
    },
    { platformTz: ctx.platformTz, now: ctx.now },
  );
  const settle = fee ? amount : await convertAsPurchase(q, p, amount);
  await q.query(`INSERT INTO dispute_movement (dispute_id, mer_id, kind, txn_id, bus_line, set_cur, amount) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    d.id,
    d.mer_id,
    kind,
    ing.id,
    p.bus_line,
    p.merchant_settle_currency,
    settle,
  ]);
}

/**
 * A new dispute's money: a chargeback or pre-arbitration debits the part of the disputed amount
 * that is still the merchant's (not refunded, not debited by another open dispute — invariant I8),
 * and charges the dispute fee. Returns the part debited.
 */
export async function openMoney(q: Queryable, d: DisputeRow, p: PurchaseForDispute, ctx: Ctx): Promise<number> {
  if (!movesMoney(d.kind)) return 0;
  const debit = Math.max(0, Math.min(d.amount, p.amount - p.return_amount - p.disputed_amount));
  if (debit > 0) {
    await q.query('UPDATE txn SET disputed_amount = disputed_amount + $2 WHERE id = $1', [p.id, debit]);
    await q.query('UPDATE dispute SET debit_amount = $2 WHERE id = $1', [d.id, debit]);
    d.debit_amount = debit;
    await move(q, d, p, 'debit', debit, ctx);
  }
  const fee = await disputeFeeOn(q, d.mer_id, p.bus_line, platformDate(ctx.at ?? ctx.now, ctx.platformTz));
  await move(q, d, p, 'fee', fee, ctx);
  return debit;
}

/**
 * Moves a dispute to `to` (refusing what the state machine does not allow), with its money: won
 * credits the debit back (the fee stays); lost, accepted, expired move nothing more.
 */
export async function transition(q: Queryable, d: DisputeRow, to: DisputeState, actor: Actor, ctx: Ctx, by?: string): Promise<DisputeRow> {
  if (d.state === to) return d;
  if (!canMove(d.state, to, actor)) {
    throw new AppError(Code.CONFLICT, 'disputeIllegalTransition', { from: d.state, to }, 409, { from: d.state, to });
  }
  const final = FINAL_STATES.includes(to);
  const { rows } = await q.query<DisputeRow>(
    `UPDATE dispute SET state = $2, version = version + 1, updated_at = $3,
            closed_at = CASE WHEN $4 THEN $3 ELSE closed_at END,
            accepted_at = CASE WHEN $2 = 'accepted' THEN $3 ELSE accepted_at END,
            outcome_by = CASE WHEN $4 THEN coalesce($5, outcome_by) ELSE outcome_by END
      WHERE id = $1 AND state = $6 RETURNING *`,
    [d.id, to, ctx.now, final, by ?? null, d.state],
  );
  if (!rows[0]) throw new AppError(Code.CONFLICT, 'disputeIllegalTransition', { from: d.state, to }, 409);
  const next = normalise(rows[0]);
  if (to === 'won' && movesMoney(d.kind) && d.debit_amount > 0) {
    const p = await lockPurchaseFor(q, { id: d.purchase_id });
    if (p) {
      await q.query('UPDATE txn SET disputed_amount = disputed_amount - $2 WHERE id = $1', [p.id, d.debit_amount]);
      await move(q, next, p, 'credit', d.debit_amount, ctx);
    }
  }
  return next;
}

export function normalise(r: DisputeRow): DisputeRow {
  return {
    ...r,
    id: Number(r.id),
    purchase_id: Number(r.purchase_id),
    amount: Number(r.amount),
    debit_amount: Number(r.debit_amount),
    refunded_before: Number(r.refunded_before),
    currency: r.currency.trim(),
  };
}

export const isOpen = (s: DisputeState) => OPEN_STATES.includes(s);
