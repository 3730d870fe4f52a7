-- The settlement run's pick-up index, per schedule: unsettled successful transactions by
-- (merchant, business line, date). Each schedule's due dates are then one exact range, so a run
-- reads what it settles and nothing else — not the dead entries of dates earlier runs finished,
-- which pile up where autovacuum does not run. Same predicate as 006 (settle_date, not settle_flag,
-- so the S → T flag change touches no indexed column).
DROP INDEX txn_to_settle_idx;
CREATE INDEX txn_to_settle_idx ON txn (mer_id, bus_line, txn_date) WHERE settle_date IS NULL AND gw_response = '00';
