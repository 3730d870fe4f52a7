import type { Queryable } from '../../db/db';

/** Transactions a run left for want of a rate, per pair: how many and since which settlement date. */
export async function waitingForRate(q: Queryable): Promise<{ total: number; pairs: { pair: string; count: number; since: string | null }[] }> {
  const { rows } = await q.query<{ pair: string; n: number; since: string | null }>(
    `SELECT l.waiting_pair AS pair, count(*)::int AS n, min(l.waiting_since)::text AS since
       FROM settle_late l JOIN txn t ON t.id = l.txn_id
      WHERE l.waiting_pair IS NOT NULL AND t.settle_date IS NULL GROUP BY l.waiting_pair ORDER BY l.waiting_pair`,
  );
  return { total: rows.reduce((a, r) => a + r.n, 0), pairs: rows.map((r) => ({ pair: r.pair, count: r.n, since: r.since })) };
}
