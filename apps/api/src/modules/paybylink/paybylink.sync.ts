import type { Deps } from '../../plugins/context';
import { createSandboxAcquirer, type SandboxAcquirer } from '../payments';
import { addEvent, settlePayment, type PblDbRow } from './paybylink.repo';
import { operationOfTxn } from '../acquirer';
import { resolveOperation } from '../acquirer';

/** A processing payment is asked for its final result once it is this old (the acquirer's query). */
const PENDING_QUERY_AFTER_MS = 5_000;

const acquirers = new WeakMap<Deps, SandboxAcquirer>();
/** The sandbox acquirer of the payment core, one per app (it takes the app's clock and zone). */
function acquirerOf(deps: Deps): SandboxAcquirer {
  let a = acquirers.get(deps);
  if (!a) {
    a = createSandboxAcquirer({ config: deps.config, clock: deps.clock });
    acquirers.set(deps, a);
  }
  return a;
}

export const outcomeOf = (gwResponse: string | null): 'success' | 'failed' | 'pending' => (gwResponse === '00' ? 'success' : !gwResponse || gwResponse === '04' ? 'pending' : 'failed');

/**
 * Brings a processing order (openStatus '00') in line with its transaction: when the acquirer has
 * answered — or, past PENDING_QUERY_AFTER_MS, when asking it gives the answer — the order becomes
 * paid or ends as failed, with a 'payment' event. True when the order changed.
 */
export async function syncProcessing(deps: Deps, o: PblDbRow): Promise<boolean> {
  if (o.status !== '04' || o.open_status !== '00' || !o.txn_id) return false;
  const txnId = o.txn_id;
  const now = deps.clock.now();
  // A charge the portal asked a gateway for (decision 033): asked about through its operation,
  // with no transaction open during the call; its settlement also settles the order.
  const op = await operationOfTxn(deps.db, txnId);
  if (op && op.state === 'pending' && now.getTime() - new Date(op.created_at).getTime() >= PENDING_QUERY_AFTER_MS) {
    if ((await resolveOperation(deps, op.id)).changed) return true;
  }
  return deps.db.tx(async (q) => {
    const { rows } = await q.query<{ gw_response: string | null; resp_msg: string | null; txn_time: Date; gw_trans_id: string }>(
      'SELECT gw_response, resp_msg, txn_time, gw_trans_id FROM txn WHERE id = $1',
      [txnId],
    );
    const t = rows[0];
    if (!t) return false;
    let gw = t.gw_response;
    let msg = t.resp_msg;
    if (!op && outcomeOf(gw) === 'pending' && now.getTime() - new Date(t.txn_time).getTime() >= PENDING_QUERY_AFTER_MS) {
      const r = await acquirerOf(deps).resolvePending(q, txnId);
      gw = r.gwResponse;
      msg = r.respMsg;
    }
    const outcome = outcomeOf(gw);
    if (outcome === 'pending') return false;
    if (!(await settlePayment(q, o.id, outcome, txnId, now))) return false;
    await addEvent(q, o.id, 'payment', 'system', now, { result: outcome, gwResponse: gw, respMsg: msg, gwTransId: t.gw_trans_id, resolved: true });
    return true;
  });
}
