-- Transactions per merchant and UTC day (issue 30, decision 052). The transaction list counts its
-- matches up to 1,001 to tell "N" from "more than 1,000"; for a list filtered only by merchant and
-- time, the days the range covers whole prove "more than 1,000" from a few of these rows instead of
-- a walk of 1,001 index entries. Only ever read as a lower bound: a day the range covers in part is
-- not summed, and where the sum does not exceed 1,000 the matches are counted as before.
--
-- Two tables, so that no write of the ledger waits for another on a shared row:
--   txn_day_delta  what each INSERT statement added (one row per merchant and day it touched),
--                  appended by a trigger — no key, no lock, no contention between writers;
--   txn_day_count  the sums, the one table the list reads. The job `txn.day-counts` moves the
--                  deltas into it (compactDayCounts, every minute). Rows deleted, or moved to
--                  another merchant or day, are taken off it directly (rare: tests, corrections).
-- So txn_day_count never exceeds the ledger: what it lacks is the inserts not yet moved.
CREATE TABLE txn_day_count (
  mer_id text   NOT NULL,
  day    date   NOT NULL,   -- (txn_time AT TIME ZONE 'UTC')::date
  n      bigint NOT NULL,   -- may go below 0 for a day a detached month took (partitions.ts)
  -- n in the key's index: the list's sum is an index-only scan (measured: 273 days of three
  -- merchants in 0.10 ms, against 0.47 ms for the walk of 1,001 ledger entries it replaces).
  PRIMARY KEY (mer_id, day) INCLUDE (n)
);

CREATE TABLE txn_day_delta (
  mer_id text   NOT NULL,
  day    date   NOT NULL,
  n      bigint NOT NULL
);

INSERT INTO txn_day_count (mer_id, day, n)
SELECT mer_id, (txn_time AT TIME ZONE 'UTC')::date, count(*) FROM txn GROUP BY 1, 2;

CREATE FUNCTION txn_day_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO txn_day_delta (mer_id, day, n)
  SELECT mer_id, (txn_time AT TIME ZONE 'UTC')::date, count(*) FROM txn_new_rows GROUP BY 1, 2;
  RETURN NULL;
END $$;
CREATE TRIGGER txn_day_count_insert AFTER INSERT ON txn REFERENCING NEW TABLE AS txn_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION txn_day_count_insert();

-- A deleted row leaves the sums at once (its insert may still be a delta: the sum then dips below
-- the ledger until the job adds it, never above).
CREATE FUNCTION txn_day_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO txn_day_count AS c (mer_id, day, n)
  SELECT mer_id, (txn_time AT TIME ZONE 'UTC')::date, -count(*) FROM txn_old_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (mer_id, day) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;
CREATE TRIGGER txn_day_count_delete AFTER DELETE ON txn REFERENCING OLD TABLE AS txn_old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION txn_day_count_delete();

-- BEFORE, as txn_key_update: it fires also when the new time moves the row to another month. The
-- old day loses the row at once, the new day gains it through a delta.
CREATE FUNCTION txn_day_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO txn_day_count AS c (mer_id, day, n) VALUES (OLD.mer_id, (OLD.txn_time AT TIME ZONE 'UTC')::date, -1)
  ON CONFLICT (mer_id, day) DO UPDATE SET n = c.n - 1;
  INSERT INTO txn_day_delta (mer_id, day, n) VALUES (NEW.mer_id, (NEW.txn_time AT TIME ZONE 'UTC')::date, 1);
  RETURN NEW;
END $$;
CREATE TRIGGER txn_day_count_update BEFORE UPDATE OF mer_id, txn_time ON txn
  FOR EACH ROW WHEN (OLD.mer_id IS DISTINCT FROM NEW.mer_id OR OLD.txn_time IS DISTINCT FROM NEW.txn_time)
  EXECUTE FUNCTION txn_day_count_update();

CREATE FUNCTION txn_day_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM txn_day_delta;
  DELETE FROM txn_day_count;
  RETURN NULL;
END $$;
CREATE TRIGGER txn_day_count_truncate AFTER TRUNCATE ON txn
  FOR EACH STATEMENT EXECUTE FUNCTION txn_day_count_truncate();
