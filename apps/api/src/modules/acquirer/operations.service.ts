import { RefundCode, SETTLING_TYPES, pickLanguage, toDecimal, type Language, type RefundResult } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { audit, AuditAction } from '../../lib/audit';
import { t } from '../../lib/messages';
import { queueLate } from '../payments';
import { acquirerOf } from './acquirer';
import type { AcquirerAnswer, CardSecret } from './acquirer.types';
import { chargeOrderFollower, type Actor } from './charge-orders';
import { getOperation, markSettled, notePending, claimDue, type OperationRow } from './operations.repo';

/** Audit actions of the money movements an operation settles (docs/acquirer-adapter.md). */
export const OperationAudit = {
  refundReserve: AuditAction.refundReserve,
  refundResult: AuditAction.refundResult,
  voidResult: AuditAction.voidResult,
  charge: AuditAction.charge,
  chargeResult: AuditAction.chargeResult,
} as const;

/** Backoff of the job's asks: 5 s, 10 s, 20 s … capped at one hour. It never gives up on a refund. */
function backoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(attempts - 1, 0), 3_600_000);
}

/**
 * A charge the gateway has never heard of this long after it was made is failed: its card number
 * was never stored, so it cannot be sent again (a refund or void is simply sent again, same key).
 */
const CHARGE_LOST_AFTER_MS = 15 * 60_000;

export type { Actor } from './charge-orders';

export interface Recorded {
  state: 'pending' | 'succeeded' | 'failed';
  gwResponse: string | null;
  respMsg: string | null;
  /** This call settled it (money moved). */
  changed: boolean;
}

const isFinal = (gw: string | null) => gw !== null && gw !== '' && gw !== '04';

/**
 * Settles an operation with the gateway's final result, inside the caller's transaction `q` —
 * the one place where a processing ('04') REFD / VOID / PURC the portal asked for becomes final,
 * whoever learnt the result (the asker, the job, the query button, or the gateway's status feed,
 * which can route here by txn id). Locks the operation, then its transaction row; a transaction
 * already final is left as it is (the operation takes its result: an answer that comes twice or
 * out of order moves no money). Success → '00' (and the late queue if its day was settled);
 * failure → the result code, and a refund's reservation goes back to the purchase's return
 * amount; a charge settles its pay-by-link / in-store order (through `registerChargeOrder`). Every settlement is audited.
 */
export async function completeOperation(
  q: Queryable,
  deps: Pick<Deps, 'clock'>,
  opId: number,
  result: { gwResponse: string; respMsg: string | null; channelOrderNo?: string | null },
  actor: Actor,
  counted = true,
): Promise<Recorded> {
  const now = deps.clock.now();
  const op = await getOperation(q, opId, true);
  if (!op) throw new Error(`acquirer operation ${opId} not found`);
  const { rows } = await q.query<{ id: number; gw_response: string | null; resp_msg: string | null; tran_type: string; gw_trans_id: string }>(
    'SELECT id, gw_response, resp_msg, tran_type, gw_trans_id FROM txn WHERE id = $1 FOR UPDATE',
    [op.txn_id],
  );
  const txn = rows[0];
  if (op.state !== 'pending' || isFinal(txn.gw_response)) {
    // Already decided (by an earlier answer or the feed): the operation follows the ledger.
    const gw = isFinal(txn.gw_response) ? txn.gw_response! : result.gwResponse;
    if (op.state === 'pending') await markSettled(q, op.id, { now, state: gw === '00' ? 'succeeded' : 'failed', gwResponse: gw, respMsg: txn.resp_msg, counted });
    return { state: gw === '00' ? 'succeeded' : 'failed', gwResponse: gw, respMsg: txn.resp_msg, changed: false };
  }
  const ok = result.gwResponse === '00';
  await q.query('UPDATE txn SET gw_response = $2, resp_msg = $3, channel_order_no = coalesce($4, channel_order_no) WHERE id = $1', [
    txn.id,
    result.gwResponse,
    result.respMsg,
    result.channelOrderNo ?? null,
  ]);
  if (ok && SETTLING_TYPES.includes(txn.tran_type as never)) await queueLate(q, [txn.id]);
  let returnAmount: number | null = null;
  if (op.purchase_id !== null && op.kind === 'refund') {
    const r = await q.query<{ return_amount: number }>(
      ok ? 'SELECT return_amount FROM txn WHERE id = $1' : 'UPDATE txn SET return_amount = greatest(return_amount - $2, 0) WHERE id = $1 RETURNING return_amount',
      ok ? [op.purchase_id] : [op.purchase_id, op.amount],
    );
    returnAmount = r.rows[0]?.return_amount ?? null;
  }
  await markSettled(q, op.id, { now, state: ok ? 'succeeded' : 'failed', gwResponse: result.gwResponse, respMsg: result.respMsg, counted });
  if (op.kind === 'refund') await storeFinalRefundResult(q, op, ok, result, returnAmount);
  if (op.kind === 'charge' && op.order_id !== null) {
    // The order it paid follows (the paybylink module's, registered from its manifest).
    await chargeOrderFollower()(q, {
      orderId: op.order_id,
      outcome: ok ? 'success' : 'failed',
      txn: { id: txn.id, gwTransId: txn.gw_trans_id },
      result: { gwResponse: result.gwResponse, respMsg: result.respMsg },
      actor,
      request: op.request,
      now,
    });
  }
  await audit(q, {
    action: op.kind === 'charge' ? OperationAudit.chargeResult : op.kind === 'refund' ? OperationAudit.refundResult : OperationAudit.voidResult,
    outcome: ok ? 'success' : 'failure',
    userId: actor.userId ?? null,
    username: actor.username ?? actor.kind,
    merId: op.mer_id,
    target: op.context.purchaseGwTransId ?? txn.gw_trans_id,
    detail: {
      operation: op.op_key,
      kind: op.kind,
      acquirer: op.acquirer,
      txnId: txn.id,
      amount: toDecimal(op.amount, op.currency),
      currency: op.currency,
      gwResponse: result.gwResponse,
      respMsg: result.respMsg,
      by: actor.kind,
      ...(returnAmount !== null ? { released: !ok, returnAmount: toDecimal(returnAmount, op.currency) } : {}),
    },
  });
  return { state: ok ? 'succeeded' : 'failed', gwResponse: result.gwResponse, respMsg: result.respMsg, changed: true };
}

/** A request key's stored answer follows its refund's final result (a repeat then answers it). */
async function storeFinalRefundResult(q: Queryable, op: OperationRow, ok: boolean, r: { gwResponse: string; respMsg: string | null }, returnAmount: number | null) {
  if (!op.context.requestKey || op.purchase_id === null) return;
  const lang: Language = pickLanguage(op.context.lang);
  const result: RefundResult = {
    code: ok ? RefundCode.OK : RefundCode.DECLINED,
    msg: ok ? t(lang, 'refundSuccess') : t(lang, 'refundDeclined', { reason: r.respMsg ?? r.gwResponse }),
    refundId: op.txn_id,
    refundOrderNo: op.request.orderNo,
    gwResponse: r.gwResponse,
    ...(returnAmount !== null ? { returnAmount: toDecimal(returnAmount, op.currency) } : {}),
  };
  await q.query('UPDATE refund_request SET result = $3 WHERE purchase_id = $1 AND request_key = $2', [op.purchase_id, op.context.requestKey, JSON.stringify(result)]);
}

/**
 * Records one answer of the gateway, in the caller's transaction: final → completeOperation;
 * processing or no answer → the operation stays pending, its next ask `backoffMs` later. An
 * answer for an operation already settled changes nothing.
 */
async function recordAnswer(q: Queryable, deps: Deps, opId: number, answer: AcquirerAnswer, actor: Actor): Promise<Recorded> {
  if (answer.kind === 'final') return completeOperation(q, deps, opId, answer, actor);
  const op = await getOperation(q, opId, true);
  if (!op) throw new Error(`acquirer operation ${opId} not found`);
  if (op.state !== 'pending') return { state: op.state, gwResponse: op.gw_response, respMsg: op.resp_msg, changed: false };
  const now = deps.clock.now();
  const error = answer.kind === 'unknown' ? answer.error.slice(0, 500) : answer.kind === 'not_found' ? 'not yet known to the gateway' : null;
  const respMsg = answer.kind === 'processing' ? answer.respMsg : null;
  await notePending(q, op.id, { now, next: new Date(now.getTime() + backoffMs(op.attempts + 1)), error, respMsg });
  return { state: 'pending', gwResponse: '04', respMsg: respMsg ?? op.resp_msg, changed: false };
}

/**
 * The asker's send, after its transaction committed: the request goes to the gateway (no
 * transaction or lock is held meanwhile) and the answer is recorded in a new transaction, where
 * `inAnswerTx` may write the asker's own bookkeeping (its audit entry, its stored reply).
 */
export async function sendOperation<T>(deps: Deps, opId: number, actor: Actor, inAnswerTx: (q: Queryable, r: Recorded) => Promise<T>, card?: CardSecret): Promise<T> {
  const op = (await getOperation(deps.db, opId))!;
  const acq = acquirerOf(deps);
  const answer = op.kind === 'refund' ? await acq.refund(op.request) : op.kind === 'void' ? await acq.void(op.request) : await acq.charge(op.request, card);
  return deps.db.tx(async (q) => inAnswerTx(q, await recordAnswer(q, deps, opId, answer, actor)));
}

/**
 * Asks the gateway again about a pending operation (the job, the query button, a buyer's status
 * poll): its status; if it never received the request, a refund or void is sent again with the
 * same key, and a charge — whose card number is gone — fails once CHARGE_LOST_AFTER_MS has passed.
 */
export async function resolveOperation(deps: Deps, opId: number, actor: Actor = { kind: 'system' }): Promise<Recorded> {
  const op = await getOperation(deps.db, opId);
  if (!op) throw new Error(`acquirer operation ${opId} not found`);
  if (op.state !== 'pending') return { state: op.state, gwResponse: op.gw_response, respMsg: op.resp_msg, changed: false };
  const acq = acquirerOf(deps);
  let answer = await acq.status(op.request);
  if (answer.kind === 'not_found') {
    if (op.kind !== 'charge') answer = op.kind === 'refund' ? await acq.refund(op.request) : await acq.void(op.request);
    else if (deps.clock.now().getTime() - new Date(op.created_at).getTime() >= CHARGE_LOST_AFTER_MS) answer = { kind: 'final', gwResponse: '01', respMsg: 'Not received by the gateway' };
  }
  return deps.db.tx((q) => recordAnswer(q, deps, opId, answer, actor));
}

/** The job's pass: claims the due operations (a lease, SKIP LOCKED) and asks about each. Returns how many. */
export async function resolveDueOperations(deps: Deps, limit = 50): Promise<{ asked: number; settled: number }> {
  const ids = await claimDue(deps.db, deps.clock.now(), leaseOf(deps), limit);
  let settled = 0;
  for (const id of ids) {
    try {
      if ((await resolveOperation(deps, id)).changed) settled++;
    } catch {
      // Left pending: the lease runs out and the next pass asks again.
    }
  }
  return { asked: ids.length, settled };
}

const leaseOf = (deps: Deps) => {
  const c = deps.config.acquirer;
  return c?.kind === 'http' ? (c.retries + 1) * c.timeoutMs * 2 + 10_000 : 30_000;
};
