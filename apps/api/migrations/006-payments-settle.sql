-- Payment core, settlement run: integer rounding, its pick-up index, schedule cursors, late queue.

-- Half-to-even integer division num / den (den > 0), in bigint arithmetic: the MDR fee.
CREATE FUNCTION div_half_even(num bigint, den bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT sign(num) * (abs(num) / den + CASE
    WHEN 2 * (abs(num) % den) > den THEN 1
    WHEN 2 * (abs(num) % den) = den AND (abs(num) / den) % 2 = 1 THEN 1
    ELSE 0 END)
$$;

-- The run's pick-up index: unsettled successful transactions by date. Its predicate reads
-- settle_date (set when a transaction settles) instead of settle_flag, so the later S → T flag
-- change touches no indexed column and can be a HOT update.
DROP INDEX txn_unsettled_idx;
CREATE INDEX txn_to_settle_idx ON txn (txn_date) WHERE settle_date IS NULL AND gw_response = '00';

-- Per fee schedule, the last transaction date the run has picked up: the next run takes the dates
-- after it up to D − cycle, so a shortened cycle leaves no date behind and no run re-reads old dates.
ALTER TABLE merchant_fee ADD COLUMN settled_through date;

-- Transactions that became settleable after their date's run (a processing payment resolved later,
-- a backdated ingestion, a missing FX rate): the next run takes them up.
CREATE TABLE settle_late (
  txn_id     bigint PRIMARY KEY REFERENCES txn(id),
  queued_at  timestamptz NOT NULL DEFAULT now()
);
