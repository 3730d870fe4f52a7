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

-- A month detached before this migration left its edge days unmarked: the counts are rebuilt from
-- the ledger once (as migration 086 filled them). The writers' triggers wait on the two locks until
-- this commits, so no row is counted twice or lost meanwhile.
LOCK TABLE txn_day_count, txn_day_delta IN EXCLUSIVE MODE;
DELETE FROM txn_day_delta;
DELETE FROM txn_day_count;
INSERT INTO txn_day_count (mer_id, day, n)
SELECT mer_id, (txn_time AT TIME ZONE 'UTC')::date, count(*) FROM txn GROUP BY 1, 2;
