import { Code, SETTLING_TYPES } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { AppError } from '../../lib/errors';
import type { Clock } from '../../lib/clock';
import { systemClock } from '../../lib/clock';
import { isProcessing, queueLate } from '../payments';
import { operationOfTxn } from './operations.repo';
import { completeOperation } from './operations.service';

export interface Finished {
  id: number;
  gwTransId: string;
  tranType: string;
  merId: string;
  gwResponse: string;
  respMsg: string | null;
  /** False when the transaction already had this final result (a repeat: nothing changed). */
  changed: boolean;
}

/**
 * Moves a processing transaction ('04' / empty) to its final result — '00' success, any other
 * code failed — in the caller's transaction, under the row's lock:
 *   - a successful settling type joins the late queue (the next run takes it up, even when its
 *     date's run is past: the late path, never a rewrite of a past settlement);
 *   - a REFD that fails gives its reservation back: the purchase's return amount drops by the
 *     refund's amount (it was raised when the refund was recorded as processing);
 *   - already final with the same result: nothing changes (idempotent, `changed: false`);
 *     already final with another result: 409.
 * Used by the provider feed's status call and file rows. A transaction the portal itself asked the
 * gateway for (a refund, void or charge with an acquirer operation, issue 25 §2) is settled through
 * that operation's one completion (`completeOperation`): the feed's answer and the adapter's own
 * answer or retry job then move its money once, whichever comes first, and the operation, the
 * refund request's stored answer and the pay-by-link order follow.
 */
export async function finishProcessing(
  q: Queryable,
  txn: { id: number } | { gwTransId: string },
  result: { gwResponse: string; respMsg?: string | null },
  clock: Clock = systemClock,
): Promise<Finished> {
  if (isProcessing(result.gwResponse) || !/^[0-9A-Za-z]{1,8}$/.test(result.gwResponse)) {
    throw new AppError(Code.BAD_REQUEST, 'gwStatusNotFinal', {}, 400, { field: 'gwResponse' });
  }
  const byId = 'id' in txn;
  // The key table gives id and partition key (one partition touched, not every month's).
  const { rows: keys } = await q.query<{ id: number; txn_time: Date }>(`SELECT id, txn_time FROM txn_key WHERE ${byId ? 'id = $1' : 'gw_trans_id = $1'}`, [byId ? txn.id : txn.gwTransId]);
  if (!keys[0]) throw new AppError(Code.NOT_FOUND, 'gwTransNotFound', { gwTransId: byId ? String(txn.id) : txn.gwTransId }, 404);
  const { rows } = await q.query<{
    id: number;
    gw_trans_id: string;
    tran_type: string;
    mer_id: string;
    gw_response: string | null;
    resp_msg: string | null;
    amount: number;
    origin_txn_id: number | null;
  }>(`SELECT id, gw_trans_id, tran_type, mer_id, gw_response, resp_msg, amount, origin_txn_id FROM txn WHERE id = $1 AND txn_time = $2 FOR UPDATE`, [keys[0].id, keys[0].txn_time]);
  const t = rows[0];
  const base = { id: Number(t.id), gwTransId: t.gw_trans_id, tranType: t.tran_type, merId: t.mer_id };
  if (!isProcessing(t.gw_response)) {
    if (t.gw_response === result.gwResponse) return { ...base, gwResponse: t.gw_response!, respMsg: t.resp_msg, changed: false };
    throw new AppError(Code.CONFLICT, 'gwStatusFinal', { gwTransId: t.gw_trans_id, current: t.gw_response! }, 409);
  }
  const respMsg = result.respMsg ?? null;
  const op = await operationOfTxn(q, Number(t.id));
  if (op) {
    await completeOperation(q, { clock }, op.id, { gwResponse: result.gwResponse, respMsg }, { kind: 'gateway' });
    return { ...base, gwResponse: result.gwResponse, respMsg, changed: true };
  }
  await q.query('UPDATE txn SET gw_response = $3, resp_msg = $4 WHERE id = $1 AND txn_time = $2', [t.id, keys[0].txn_time, result.gwResponse, respMsg]);
  if (result.gwResponse === '00' && SETTLING_TYPES.includes(t.tran_type as never)) await queueLate(q, [Number(t.id)]);
  if (t.tran_type === 'REFD' && result.gwResponse !== '00' && t.origin_txn_id !== null) {
    await q.query('UPDATE txn SET return_amount = greatest(return_amount - $2, 0) WHERE id = $1', [t.origin_txn_id, t.amount]);
  }
  return { ...base, gwResponse: result.gwResponse, respMsg, changed: true };
}
