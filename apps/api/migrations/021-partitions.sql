-- Issue 16, target 3: the ledger partitioned by month (decision 028, docs/scaling.md).
--
-- txn becomes PARTITION BY RANGE (txn_time), one partition per month of the partition zone
-- (UTC+8, Asia/Shanghai: the platform zone of the demo and of the reports), named txn_pYYYYMM.
-- There is no default partition (so a month can be detached CONCURRENTLY); ingestion and the job
-- runner create months through month_partitions_ensure before rows arrive.
--
-- A key on a partitioned table must contain the partition column, so the three guarantees the
-- ledger had — id unique, (mer_id, order_no) unique, gw_trans_id unique — and the target of the
-- six foreign keys move to txn_key, an ordinary table of one small row per transaction written by
-- the triggers below in the same statement as the row. Detaching a month then breaks no reference:
-- refunds, logistics, pay-by-link orders and the late queue point at the key, which stays.

-- Creates the missing monthly partitions of `parent` from the month of `lo` to the month of `hi`
-- (both included). Returns how many it created. Cheap when they exist (a catalogue look-up per
-- month, no lock); creating one first takes a lock on the parent that only other creators wait
-- for, so two sessions do not race to the same name.
CREATE FUNCTION month_partitions_ensure(parent regclass, lo timestamptz, hi timestamptz) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  zone constant text := 'Asia/Shanghai';
  nsp text;
  rel text;
  m timestamp;
  last timestamp;
  part text;
  made int := 0;
BEGIN
  IF lo IS NULL OR hi IS NULL OR hi < lo THEN RETURN 0; END IF;
  SELECT n.nspname, c.relname INTO nsp, rel FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = parent;
  m := date_trunc('month', lo AT TIME ZONE zone);
  last := date_trunc('month', hi AT TIME ZONE zone);
  WHILE m <= last LOOP
    part := rel || '_p' || to_char(m, 'YYYYMM');
    IF to_regclass(quote_ident(nsp) || '.' || quote_ident(part)) IS NULL THEN
      -- Creators queue on this lock (it conflicts with itself, not with reads or writes); taking
      -- a table lock also refreshes this session's view of the catalogue, so the second look
      -- sees a month another session has just created.
      EXECUTE format('LOCK TABLE %s IN SHARE UPDATE EXCLUSIVE MODE', parent);
      IF to_regclass(quote_ident(nsp) || '.' || quote_ident(part)) IS NULL THEN
        EXECUTE format('CREATE TABLE %I.%I PARTITION OF %s FOR VALUES FROM (%L) TO (%L)',
                       nsp, part, parent, (m AT TIME ZONE zone)::text, ((m + interval '1 month') AT TIME ZONE zone)::text);
        made := made + 1;
      END IF;
    END IF;
    m := m + interval '1 month';
  END LOOP;
  RETURN made;
END $$;

-- The ledger's global keys (see above). One row per txn row, same id.
CREATE TABLE txn_key (
  id           bigint PRIMARY KEY,
  txn_time     timestamptz NOT NULL,
  mer_id       varchar(15) NOT NULL,
  order_no     text NOT NULL,
  gw_trans_id  text NOT NULL UNIQUE,
  UNIQUE (mer_id, order_no)
);
INSERT INTO txn_key (id, txn_time, mer_id, order_no, gw_trans_id) SELECT id, txn_time, mer_id, order_no, gw_trans_id FROM txn;

-- The partitioned ledger: the same columns, defaults and checks (LIKE … INCLUDING), the rows
-- copied month by month, then the old table and its references dropped and remade.
ALTER TABLE txn RENAME TO txn_unpartitioned;
CREATE TABLE txn (LIKE txn_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (txn_time);
ALTER SEQUENCE txn_id_seq OWNED BY txn.id;
SELECT month_partitions_ensure('txn', coalesce((SELECT min(txn_time) FROM txn_unpartitioned), now()), greatest(now(), coalesce((SELECT max(txn_time) FROM txn_unpartitioned), now())) + interval '3 months');
INSERT INTO txn SELECT * FROM txn_unpartitioned;
DROP TABLE txn_unpartitioned CASCADE;

ALTER TABLE txn ADD PRIMARY KEY (id, txn_time);
ALTER TABLE txn ADD FOREIGN KEY (mer_id) REFERENCES merchant (mer_id);
ALTER TABLE txn ADD FOREIGN KEY (origin_txn_id) REFERENCES txn_key (id);
-- What the unique indexes served as look-ups (order number, gateway id): now per partition.
CREATE INDEX txn_mer_order_idx ON txn (mer_id, order_no);
CREATE INDEX txn_gw_trans_idx ON txn (gw_trans_id);
CREATE INDEX txn_mer_time_idx ON txn (mer_id, txn_time DESC, id DESC);
CREATE INDEX txn_origin_idx ON txn (origin_txn_id) WHERE origin_txn_id IS NOT NULL;
CREATE INDEX txn_origin_no_idx ON txn (mer_id, origin_order_no) WHERE origin_order_no IS NOT NULL;
CREATE INDEX txn_channel_order_idx ON txn (channel_order_no) WHERE channel_order_no IS NOT NULL;
CREATE INDEX txn_settled_idx ON txn (mer_id, bus_line, settle_currency, settle_date) WHERE settle_date IS NOT NULL;
CREATE INDEX txn_pending_idx ON txn (txn_time) WHERE gw_response IS NULL OR gw_response = '04';
CREATE INDEX txn_time_idx ON txn (txn_time DESC, id DESC);
CREATE INDEX txn_mer_time_cover_idx ON txn (mer_id, txn_time) INCLUDE (tran_type, gw_response, payment_brand, payment_schema);
CREATE INDEX txn_to_settle_idx ON txn (mer_id, bus_line, txn_date) WHERE settle_date IS NULL AND gw_response = '00';

ALTER TABLE logistics ADD FOREIGN KEY (txn_id) REFERENCES txn_key (id);
ALTER TABLE refund_request ADD FOREIGN KEY (purchase_id) REFERENCES txn_key (id);
ALTER TABLE refund_request ADD FOREIGN KEY (refund_txn_id) REFERENCES txn_key (id);
ALTER TABLE pay_by_link_order ADD FOREIGN KEY (txn_id) REFERENCES txn_key (id);
ALTER TABLE settle_late ADD FOREIGN KEY (txn_id) REFERENCES txn_key (id);

-- The keys follow the rows: inserted set-based after each INSERT statement (a duplicate order
-- number or gateway id fails that statement), kept equal when a key column is updated, deleted
-- with the row. TRUNCATE txn must name txn_key too.
CREATE FUNCTION txn_key_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO txn_key (id, txn_time, mer_id, order_no, gw_trans_id)
  SELECT id, txn_time, mer_id, order_no, gw_trans_id FROM txn_new_rows;
  RETURN NULL;
END $$;
CREATE TRIGGER txn_key_insert AFTER INSERT ON txn REFERENCING NEW TABLE AS txn_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION txn_key_insert();

CREATE FUNCTION txn_key_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE txn_key SET id = NEW.id, txn_time = NEW.txn_time, mer_id = NEW.mer_id, order_no = NEW.order_no, gw_trans_id = NEW.gw_trans_id
   WHERE id = OLD.id;
  RETURN NEW;
END $$;
CREATE TRIGGER txn_key_update BEFORE UPDATE OF id, txn_time, mer_id, order_no, gw_trans_id ON txn
  FOR EACH ROW EXECUTE FUNCTION txn_key_update();

CREATE FUNCTION txn_key_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM txn_key k USING txn_old_rows o WHERE k.id = o.id;
  RETURN NULL;
END $$;
CREATE TRIGGER txn_key_delete AFTER DELETE ON txn REFERENCING OLD TABLE AS txn_old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION txn_key_delete();

-- The audit log, by month of `at` (nothing references it). The retention purge drops whole months
-- past the 12 months kept and deletes what remains of the oldest kept month's edge.
ALTER TABLE audit_log RENAME TO audit_log_unpartitioned;
CREATE TABLE audit_log (LIKE audit_log_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (at);
ALTER SEQUENCE audit_log_id_seq OWNED BY audit_log.id;
SELECT month_partitions_ensure('audit_log', coalesce((SELECT min(at) FROM audit_log_unpartitioned), now()), greatest(now(), coalesce((SELECT max(at) FROM audit_log_unpartitioned), now())) + interval '3 months');
INSERT INTO audit_log SELECT * FROM audit_log_unpartitioned;
DROP TABLE audit_log_unpartitioned;
ALTER TABLE audit_log ADD PRIMARY KEY (id, at);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC);
CREATE INDEX audit_log_user_idx ON audit_log (user_id, at DESC);
CREATE INDEX audit_log_mer_at_idx ON audit_log (mer_id, at DESC, id DESC);
