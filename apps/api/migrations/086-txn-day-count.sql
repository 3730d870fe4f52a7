-- Transactions per merchant and UTC day (issue 30, decision 052). The transaction list counts its
-- matches up to 1,001 to tell "N" from "more than 1,000"; for a list filtered only by merchant and
-- time, the days the range covers whole prove "more than 1,000" from a few of these rows instead of
-- a walk of 1,001 index entries. Only ever read as a lower bound: a day the range covers in part is
-- not summed, and where the sum does not exceed 1,000 the matches are counted as before.
CREATE TABLE txn_day_count (
  mer_id text   NOT NULL,
  day    date   NOT NULL,   -- (txn_time AT TIME ZONE 'UTC')::date
  n      bigint NOT NULL,
  PRIMARY KEY (mer_id, day)
);

INSERT INTO txn_day_count (mer_id, day, n)
SELECT mer_id, (txn_time AT TIME ZONE 'UTC')::date, count(*) FROM txn GROUP BY 1, 2;

-- The counts follow the rows, in the statement that writes them: added set-based after each INSERT
-- statement (one upsert per merchant and day, in key order, so two statements take the row locks in
-- the same order), moved when a row's merchant or time is updated, taken off after each DELETE
-- statement, emptied with TRUNCATE txn. A month detached for archive takes its days' counts with it
-- (partitions.ts, detachMonth). Each count stays at most the day's true number: a subtraction
-- stops at 0 (a day whose count went with a detached month may still lose rows).
CREATE FUNCTION txn_day_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO txn_day_count AS c (mer_id, day, n)
  SELECT mer_id, (txn_time AT TIME ZONE 'UTC')::date, count(*) FROM txn_new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (mer_id, day) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;
CREATE TRIGGER txn_day_count_insert AFTER INSERT ON txn REFERENCING NEW TABLE AS txn_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION txn_day_count_insert();

CREATE FUNCTION txn_day_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE txn_day_count c SET n = greatest(c.n - o.n, 0)
    FROM (SELECT mer_id, (txn_time AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM txn_old_rows GROUP BY 1, 2) o
   WHERE c.mer_id = o.mer_id AND c.day = o.day;
  RETURN NULL;
END $$;
CREATE TRIGGER txn_day_count_delete AFTER DELETE ON txn REFERENCING OLD TABLE AS txn_old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION txn_day_count_delete();

-- BEFORE, as txn_key_update: it fires also when the new time moves the row to another month.
CREATE FUNCTION txn_day_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE txn_day_count SET n = greatest(n - 1, 0) WHERE mer_id = OLD.mer_id AND day = (OLD.txn_time AT TIME ZONE 'UTC')::date;
  INSERT INTO txn_day_count AS c (mer_id, day, n) VALUES (NEW.mer_id, (NEW.txn_time AT TIME ZONE 'UTC')::date, 1)
  ON CONFLICT (mer_id, day) DO UPDATE SET n = c.n + 1;
  RETURN NEW;
END $$;
CREATE TRIGGER txn_day_count_update BEFORE UPDATE OF mer_id, txn_time ON txn
  FOR EACH ROW WHEN (OLD.mer_id IS DISTINCT FROM NEW.mer_id OR OLD.txn_time IS DISTINCT FROM NEW.txn_time)
  EXECUTE FUNCTION txn_day_count_update();

CREATE FUNCTION txn_day_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM txn_day_count;
  RETURN NULL;
END $$;
CREATE TRIGGER txn_day_count_truncate AFTER TRUNCATE ON txn
  FOR EACH STATEMENT EXECUTE FUNCTION txn_day_count_truncate();
