import type { Deps } from '../../plugins/context';
import { badRequest } from '../../lib/errors';
import { money } from './txn.row';
import { listSettle, settleWhere, sumSettle, toSettleRow, type SettleFilter } from './settle.repo';

/**
 * /txn/settleList: the transactions of one merchant, business line and settlement currency whose
 * settlement date lies in [beginDate, endDate], with their sum (settlement amount − fee), which
 * equals the settlement row's figure (domain invariant I1).
 */
export async function settleList(deps: Deps, scope: string[], q: SettleFilter & { page: number; size: number }) {
  if (q.beginDate > q.endDate) throw badRequest('beginDate must not be after endDate');
  const w = settleWhere(q, scope);
  const [rows, sum] = await Promise.all([listSettle(deps.db.read, w, q.page, q.size), sumSettle(deps.db.read, w)]);
  return {
    content: rows.map((r) => toSettleRow(r, deps.config.platformTz)),
    totalElements: sum.n,
    sum: {
      currency: q.setCur,
      count: sum.n,
      settleAmount: money(sum.amount, q.setCur),
      fee: money(sum.fee, q.setCur),
      net: money(sum.amount - sum.fee, q.setCur),
    },
  };
}
