-- Issue 52, decision 083: a deep page of the transaction list skips the newest whole days by their
-- counts (txn.jump.ts) instead of walking every index entry before it. For that the counts must be
-- exact, not only a lower bound (decision 052): per merchant and UTC day, txn_day_count plus the
-- deltas not yet moved into it equal the ledger in every snapshot — except on the edge days of a
-- detached month (detachMonth takes every UTC day the month touches, also what a neighbouring month
-- holds of its shared day). Those days are marked here, and the jump skips no day at or before a
-- marked one.
CREATE TABLE txn_day_inexact (
  day       date        PRIMARY KEY,
  marked_at timestamptz NOT NULL DEFAULT now()
);

-- A month detached before this migration left its edge days unmarked: the counts are set to the
-- ledger's once. The writers' triggers wait on the two locks until this commits, so no row is
-- counted twice or lost meanwhile. Only the days that differ are written (none where no month was
-- ever detached): a rebuild would leave every row of the sums dead, and PGlite has no autovacuum
-- to clear them for the list's index-only sums.
LOCK TABLE txn_day_count, txn_day_delta IN EXCLUSIVE MODE;
-- The deltas into the sums first, as the job `txn.day-counts` does.
WITH moved AS (DELETE FROM txn_day_delta RETURNING mer_id, day, n)
INSERT INTO txn_day_count AS c (mer_id, day, n)
SELECT mer_id, day, sum(n) FROM moved GROUP BY 1, 2 ORDER BY 1, 2
ON CONFLICT (mer_id, day) DO UPDATE SET n = c.n + EXCLUDED.n;
-- Then each day to the ledger's count where it differs.
INSERT INTO txn_day_count AS c (mer_id, day, n)
SELECT mer_id, (txn_time AT TIME ZONE 'UTC')::date, count(*) FROM txn GROUP BY 1, 2 ORDER BY 1, 2
ON CONFLICT (mer_id, day) DO UPDATE SET n = EXCLUDED.n WHERE c.n <> EXCLUDED.n;
-- A day left with a count but no row in the ledger.
UPDATE txn_day_count c SET n = 0
 WHERE c.n <> 0
   AND NOT EXISTS (SELECT 1 FROM txn t WHERE t.mer_id = c.mer_id
                      AND t.txn_time >= (c.day::timestamp AT TIME ZONE 'UTC') AND t.txn_time < ((c.day + 1)::timestamp AT TIME ZONE 'UTC'));
