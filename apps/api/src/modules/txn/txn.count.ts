import { PIPELINED, PREPARED, type Queryable } from '../../db/db';
import { PAGE_ORDER, type Where } from './txn.repo';
import { LIST_COLUMNS, listRow, type ListDbRow } from './txn.row';

/*
 * How many ledger rows match a list's filter: exactly (countTxn), or up to a budget with the
 * per-day sums read first (countTxnUpTo, decision 052), or with page 1 in the same statement
 * (firstPageCounted). The rows themselves: txn.repo.ts.
 */

export async function countTxn(q: Queryable, w: Where): Promise<number> {
  const { rows } = await q.query<{ n: number }>(`SELECT count(*)::int8 AS n FROM txn t WHERE ${w.sql}`, w.params);
  return rows[0].n;
}

/**
 * The number of matches up to `budget + 1` (the scan stops there): a total that is exact while
 * cheap, and reads "more than budget" beyond, whatever the merchant's size. A list filtered only by
 * scope and time first sums the per-day counts of the days its range covers whole (txn_day_count,
 * a few rows; never more than the ledger holds, decision 052): above the budget, that proves "more
 * than budget" and the walk of budget + 1 index entries does not run (a scalar subquery in a CASE
 * branch is an initplan, run only when that branch is taken). The first SOME_DAYS day rows are
 * summed first, then all of them, then the walk: each step runs only when the one before proved
 * nothing.
 */
export async function countTxnUpTo(q: Queryable, w: Where, budget: number): Promise<number> {
  const c = boundedCount(w, budget);
  const { rows } = await q.query<{ n: number }>(`SELECT ${c.sql} AS n`, c.params, w.genericSafe ? PIPELINED : PREPARED);
  return rows[0].n;
}

/**
 * How many day sums are read first: a busy merchant's few days already prove "more than the
 * budget" (no day's sum exceeds its rows in the ledger, so neither does the sum of some of them);
 * all the range's days are summed only when they do not.
 */
const SOME_DAYS = 16;

/**
 * countTxnUpTo's expression and its parameters (w's, then the days'). `walk: false` leaves the walk
 * out: the expression is then -1 where the day sums prove nothing.
 */
function boundedCount(w: Where, budget: number, walk = true): { sql: string; params: unknown[] } {
  const limit = Math.trunc(budget) + 1;
  const walkSql = `(SELECT count(*)::int8 FROM (SELECT 1 FROM txn t WHERE ${w.sql} LIMIT ${limit}) s)`;
  if (!w.days) return { sql: walkSql, params: w.params };
  const n = w.params.length;
  const days = `FROM txn_day_count d WHERE ${w.days.mer} AND d.day >= $${n + 1}::date AND d.day < $${n + 2}::date`;
  return {
    sql: `CASE WHEN (SELECT coalesce(sum(s.n), 0) FROM (SELECT d.n ${days} LIMIT ${SOME_DAYS}) s) > ${Math.trunc(budget)} THEN ${limit}::int8
               WHEN (SELECT coalesce(sum(d.n), 0) ${days}) > ${Math.trunc(budget)} THEN ${limit}::int8
               ELSE ${walk ? walkSql : '-1::int8'} END`,
    params: [...w.params, w.days.from, w.days.to],
  };
}

/**
 * Page 1 of the list with its count bounded at `budget` (countTxnUpTo's) — one round trip and one
 * backend per call for a busy scope. The count is an uncorrelated scalar subquery: an initplan, run
 * once, its value on every row. No row: nothing matches, the total is 0.
 *
 * Where the day sums may prove "more than budget" (w.days), the statement carries them but not
 * the walk: the executor sets up every initplan before it runs any, and the walk's (an index scan
 * per partition) measured ~40 % of the statement's server time though a busy scope never runs it
 * (pgbench, docs/performance.md). When the sums prove nothing, a page shorter than `size` is every
 * match; otherwise the walk runs as a statement of its own (a scope of few rows: a cheap one).
 */
export async function firstPageCounted(q: Queryable, w: Where, size: number, budget: number): Promise<{ rows: ListDbRow[]; n: number }> {
  const c = boundedCount(w, budget, false);
  const { rows: found } = await q.query<{ r: unknown[]; count_n: number }>(
    `SELECT ${LIST_COLUMNS}, ${c.sql} AS count_n FROM txn t JOIN merchant m ON m.mer_id = t.mer_id
      WHERE ${w.sql} ${PAGE_ORDER} LIMIT ${size}`,
    c.params,
    w.genericSafe ? PIPELINED : undefined,
  );
  const rows = found.map(listRow);
  if (!rows.length) return { rows, n: 0 };
  const n = Number(found[0].count_n);
  if (n >= 0) return { rows, n };
  if (rows.length < size) return { rows, n: rows.length };
  return { rows, n: await countTxnUpTo(q, { ...w, days: undefined }, budget) };
}
