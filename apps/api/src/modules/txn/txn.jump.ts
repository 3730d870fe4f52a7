/*
 * A deep page of the list by offset, with the newest whole days skipped by their counts (issue 52,
 * decision 083). An offset walks every index entry before its page: page 1,000 of 10 reads 9,990
 * entries, ~4–9× page 1. For a list filtered only by scope and time (the unfiltered list, a date
 * range, a merchant: `Where.days`), the counts per merchant and UTC day (txn_day_count, decision 052)
 * with the deltas not yet moved into them (txn_day_delta) equal the ledger — in every snapshot, since
 * the insert, delete and move triggers write them in the writer's own transaction and the job moves a
 * delta into its sum in one statement (the property test in txn-day-count.test.ts). Where a detached
 * month's edge day lost the neighbour's rows (partitions.ts, detachMonth), the day is marked in
 * txn_day_inexact, and no day at or before it is skipped.
 *
 * One statement: `top` counts the rows of the range's partial newest day (at or after the first
 * whole day's end), `sums` adds up the whole days newest first, and `j` picks the oldest day D whose
 * rows, with every newer match, still lie within the offset. The page is then the rows before D's
 * midnight at the offset that is left (less than one day's rows). No day fits (the partial newest
 * day alone holds more than the offset): the plain offset, D = +∞ and nothing skipped. The offset
 * is a parameter, so the statement is prepared as page 1's is.
 */

/** The part of a list's filter the jump needs (txn.repo.ts's Where). */
export interface JumpWhere {
  sql: string;
  params: unknown[];
  days?: { mer: string; from: string; to: string };
}

/** From this offset on, a page by offset skips the whole days (below it, the walk costs less than the sums). */
export const JUMP_FROM = 1_000;

/**
 * The statement of page (offset, size) over `w` (which must carry `days`), selecting `columns`
 * from the page's rows `t` joined with their merchant `m`, in `order`.
 */
export function jumpStatement(w: JumpWhere & { days: NonNullable<JumpWhere['days']> }, offset: number, size: number, columns: string, order: string): { sql: string; params: unknown[] } {
  const n = w.params.length;
  const from = `$${n + 1}::date`;
  const to = `$${n + 2}::date`;
  const off = `$${n + 3}::int8`;
  const days = (table: string) => `SELECT d.day, d.n FROM ${table} d WHERE ${w.days.mer} AND d.day >= ${from} AND d.day < ${to}`;
  const sql = `WITH top AS MATERIALIZED (
      SELECT count(*) AS n FROM txn t WHERE ${w.sql} AND t.txn_time >= (${to}::timestamp AT TIME ZONE 'UTC')
    ), sums AS MATERIALIZED (
      SELECT u.day, sum(sum(u.n)) OVER (ORDER BY u.day DESC) AS s
        FROM (${days('txn_day_count')} UNION ALL ${days('txn_day_delta')}) u
       WHERE u.day > coalesce((SELECT max(i.day) FROM txn_day_inexact i WHERE i.day >= ${from} AND i.day < ${to}), '-infinity'::date)
       GROUP BY u.day
    ), j AS MATERIALIZED (
      SELECT sums.day, top.n + sums.s AS skipped FROM sums, top WHERE top.n + sums.s <= ${off} ORDER BY sums.day LIMIT 1
    )
    SELECT ${columns} FROM (
      SELECT t.id, t.txn_time FROM txn t
       WHERE ${w.sql} AND t.txn_time < coalesce((SELECT j.day::timestamp AT TIME ZONE 'UTC' FROM j), 'infinity'::timestamptz)
       ${order} LIMIT ${Math.trunc(size)} OFFSET (${off} - coalesce((SELECT j.skipped FROM j), 0))
    ) k JOIN txn t ON t.id = k.id AND t.txn_time = k.txn_time JOIN merchant m ON m.mer_id = t.mer_id ${order}`;
  return { sql, params: [...w.params, w.days.from, w.days.to, offset] };
}
