-- Exchange rates that can be loaded (issue 46): every version of a pair's rate of a day, where it
-- came from, and which version converted each settled transaction.
--
-- fx_rate (002) stays the table the settlement run reads: one rate per (day, pair), the one in
-- force. Every insert into it and every change of its rate writes a version to fx_rate_entry (a
-- trigger, so no path — the provider API, the inbox file, the back office, a seed — can skip the
-- history); the version's id is fx_rate.entry_id, and the run copies it onto the transactions it
-- converts (txn.fx_rate_id) beside the rate itself (txn.fx_rate).
CREATE TABLE fx_rate_entry (
  id          bigserial PRIMARY KEY,
  rate_date   date NOT NULL,
  from_cur    char(3) NOT NULL,
  to_cur      char(3) NOT NULL,
  rate        numeric(24, 12) NOT NULL CHECK (rate > 0),
  source      text NOT NULL CHECK (source IN ('api', 'file', 'backoffice', 'direct')),
  source_ref  text,                          -- connection and key, file name, approval request
  supersedes  bigint REFERENCES fx_rate_entry(id),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fx_rate_entry_pair_idx ON fx_rate_entry (from_cur, to_cur, rate_date, id);

ALTER TABLE fx_rate ADD COLUMN entry_id bigint;
ALTER TABLE fx_rate ADD COLUMN source text NOT NULL DEFAULT 'direct';
ALTER TABLE fx_rate ADD COLUMN source_ref text;

-- Rates there before this migration become their pair's first version.
INSERT INTO fx_rate_entry (rate_date, from_cur, to_cur, rate, source)
SELECT rate_date, from_cur, to_cur, rate, 'direct' FROM fx_rate ORDER BY rate_date, from_cur, to_cur;
UPDATE fx_rate r SET entry_id = e.id FROM fx_rate_entry e
 WHERE e.rate_date = r.rate_date AND e.from_cur = r.from_cur AND e.to_cur = r.to_cur;

-- A new version id before the row is written (a new row, or a changed rate or source); the version
-- itself after (an insert that ON CONFLICT DO NOTHING skips writes none).
CREATE FUNCTION fx_rate_version_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.rate IS DISTINCT FROM OLD.rate OR NEW.source IS DISTINCT FROM OLD.source
     OR NEW.source_ref IS DISTINCT FROM OLD.source_ref THEN
    NEW.entry_id := nextval(pg_get_serial_sequence('fx_rate_entry', 'id'));
  ELSE
    NEW.entry_id := OLD.entry_id;
  END IF;
  RETURN NEW;
END $$;
CREATE FUNCTION fx_rate_version_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.entry_id IS DISTINCT FROM OLD.entry_id THEN
    INSERT INTO fx_rate_entry (id, rate_date, from_cur, to_cur, rate, source, source_ref, supersedes)
    VALUES (NEW.entry_id, NEW.rate_date, NEW.from_cur, NEW.to_cur, NEW.rate, NEW.source, NEW.source_ref,
            CASE WHEN TG_OP = 'UPDATE' THEN OLD.entry_id END);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER fx_rate_version_id BEFORE INSERT OR UPDATE ON fx_rate FOR EACH ROW EXECUTE FUNCTION fx_rate_version_id();
CREATE TRIGGER fx_rate_version_row AFTER INSERT OR UPDATE ON fx_rate FOR EACH ROW EXECUTE FUNCTION fx_rate_version_row();

-- The version that converted a settled transaction (NULL: same currency, rate 1, or settled before this).
ALTER TABLE txn ADD COLUMN fx_rate_id bigint;

-- Late-queue entries a run left for want of a rate: the pair they wait for ('USD>HKD'), counted on
-- /metrics and shown on the runs screen; NULL for other late rows.
ALTER TABLE settle_late ADD COLUMN waiting_pair text;
ALTER TABLE settle_late ADD COLUMN waiting_since date;

-- The back office enters a rate under four eyes: one operator proposes, another approves.
CREATE TABLE fx_rate_request (
  id               bigserial PRIMARY KEY,
  rate_date        date NOT NULL,
  from_cur         char(3) NOT NULL,
  to_cur           char(3) NOT NULL,
  rate             numeric(24, 12) NOT NULL CHECK (rate > 0),
  correction       boolean NOT NULL DEFAULT false,
  note             text CHECK (note IS NULL OR length(note) <= 500),
  status           text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  proposed_by      int NOT NULL REFERENCES ops_operator(id),
  proposed_at      timestamptz NOT NULL DEFAULT now(),
  decided_by       int REFERENCES ops_operator(id),
  decided_at       timestamptz,
  decision_reason  text CHECK (decision_reason IS NULL OR length(decision_reason) <= 500),
  entry_id         bigint REFERENCES fx_rate_entry(id)
);
CREATE INDEX fx_rate_request_status_idx ON fx_rate_request (status, proposed_at DESC);

-- How many settled transactions a version converted (history, correction answers).
CREATE INDEX txn_fx_rate_id_idx ON txn (fx_rate_id) WHERE fx_rate_id IS NOT NULL;

-- The inbox's daily rates file (<connection id>/*.rates.csv) is an import of its own kind: its
-- report (rows read, stored, unchanged, refused with line and reason) is an import_file row.
ALTER TABLE import_file ADD COLUMN kind text NOT NULL DEFAULT 'transactions' CHECK (kind IN ('transactions', 'rates'));
