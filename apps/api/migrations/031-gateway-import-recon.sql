-- Issue 25 (decision 032): what each gateway connection reported (the per-transaction side of the
-- reconciliation), daily transaction files with their reports and resume point, control totals,
-- and the reconciliation's differences.

-- The last report of each transaction by a connection, as the gateway gave it (rows that could not
-- be read are not here: they are in the file's report or the batch's answer).
CREATE TABLE gateway_reported (
  connection_id  text NOT NULL REFERENCES gateway_connection (id),
  gw_trans_id    text NOT NULL,
  mer_id         text NOT NULL,
  txn_date       date NOT NULL,
  tran_type      text NOT NULL,
  currency       text NOT NULL,
  amount         bigint NOT NULL,          -- signed minor units
  gw_response    text,
  reported_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (connection_id, gw_trans_id)
);
CREATE INDEX gateway_reported_day_idx ON gateway_reported (connection_id, txn_date);

-- A daily file (CSV or JSON lines): identified by the SHA-256 of its content, so importing it twice
-- adds nothing; last_line is the last line committed (a restarted import resumes after it).
CREATE TABLE import_file (
  id             bigserial PRIMARY KEY,
  file_hash      text NOT NULL UNIQUE,
  file_name      text NOT NULL,
  connection_id  text NOT NULL REFERENCES gateway_connection (id),
  format         text NOT NULL CHECK (format IN ('csv', 'jsonl')),
  status         text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
  last_line      int NOT NULL DEFAULT 0,
  rows_read      int NOT NULL DEFAULT 0,
  accepted       int NOT NULL DEFAULT 0,
  duplicate      int NOT NULL DEFAULT 0,
  rejected       int NOT NULL DEFAULT 0,
  -- The trailer's control totals and whether the file's own rows add up to them.
  control        jsonb,
  control_ok     boolean,
  message        text,
  started_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz
);

-- The refused rows of a file, with their line numbers and reasons.
CREATE TABLE import_file_error (
  file_id      bigint NOT NULL REFERENCES import_file (id) ON DELETE CASCADE,
  line         int NOT NULL,
  gw_trans_id  text,
  code         int NOT NULL,
  msg          text NOT NULL,
  PRIMARY KEY (file_id, line)
);

-- The gateway's control totals per connection, day, currency and type (successful transactions):
-- sent with POST /provider/v1/control-totals or read from a file's trailer; the last one counts.
CREATE TABLE gateway_control_total (
  connection_id  text NOT NULL REFERENCES gateway_connection (id),
  txn_date       date NOT NULL,
  currency       text NOT NULL,
  tran_type      text NOT NULL,
  txn_count      int NOT NULL,
  amount         bigint NOT NULL,          -- signed minor units
  source         text NOT NULL,            -- api, or file:<import_file id>
  received_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (connection_id, txn_date, currency, tran_type)
);

-- The reconciliation of a connection's day: one row per difference (replaced on each run).
--   kind: missing (reported, not in the ledger), extra (in the ledger, not reported),
--         amount (amount or currency differs), status (result differs),
--         total (control total of a currency and type differs from the ledger's).
CREATE TABLE recon_difference (
  id             bigserial PRIMARY KEY,
  connection_id  text NOT NULL REFERENCES gateway_connection (id),
  txn_date       date NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('missing', 'extra', 'amount', 'status', 'total')),
  gw_trans_id    text,
  mer_id         text,
  detail         jsonb NOT NULL DEFAULT '{}',
  found_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recon_difference_day_idx ON recon_difference (connection_id, txn_date);
CREATE INDEX recon_difference_mer_idx ON recon_difference (mer_id, txn_date);

-- A finished reconciliation run per connection and day (the job's catch-up marker).
CREATE TABLE recon_run (
  connection_id  text NOT NULL REFERENCES gateway_connection (id),
  txn_date       date NOT NULL,
  differences    int NOT NULL,
  ran_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (connection_id, txn_date)
);
