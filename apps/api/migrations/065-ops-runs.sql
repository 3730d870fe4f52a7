-- The back office's runs screen (issue 26, decision 045): every settlement run of a date — by the
-- daily job, the CLI or an operator's re-run — with its state, counts, times and who started it.
-- settlement_run (002) stays the record of which dates are settled; this is the history of attempts,
-- including the ones that failed (their transaction rolled back, so settlement_run has no row).
CREATE TABLE settlement_run_log (
  id            bigserial PRIMARY KEY,
  run_date      date NOT NULL,
  state         text NOT NULL CHECK (state IN ('running', 'done', 'skipped', 'failed')),
  trigger       text NOT NULL CHECK (trigger IN ('job', 'cli', 'operator')),
  operator_id   int REFERENCES ops_operator(id),
  operator_name text,
  started_at    timestamptz NOT NULL DEFAULT now(),
  ended_at      timestamptz,
  txn_count     int,
  row_count     int,
  unconverted   int,
  error         text
);
CREATE INDEX settlement_run_log_date_idx ON settlement_run_log (run_date DESC, id DESC);
-- At most one operator re-run of a date at a time: the second one's insert fails atomically.
CREATE UNIQUE INDEX settlement_run_log_running_idx ON settlement_run_log (run_date) WHERE state = 'running';
