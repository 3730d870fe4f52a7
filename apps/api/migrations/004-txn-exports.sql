-- Transactions module: refund idempotency, the durable export queue / file-report area, list indexes.

-- One row per client refund request key: a repeated request (same purchase, same key) returns the
-- stored result instead of refunding twice. Written in the refund's own database transaction.
CREATE TABLE refund_request (
  purchase_id   bigint NOT NULL REFERENCES txn(id),
  request_key   text NOT NULL,
  amount        bigint NOT NULL,
  user_id       int NOT NULL,
  refund_txn_id bigint REFERENCES txn(id),
  result        jsonb NOT NULL DEFAULT '{}',
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (purchase_id, request_key)
);

-- Export files (the file-report area). The row is also the durable job: a worker claims a queued
-- row with FOR UPDATE SKIP LOCKED; a running row whose heartbeat is stale is taken over.
CREATE TABLE export_file (
  id            bigserial PRIMARY KEY,
  user_id       int NOT NULL REFERENCES app_user(id),
  mer_id        varchar(15) NOT NULL REFERENCES merchant(mer_id),
  kind          text NOT NULL,                 -- row source: txn, settle, report.* …
  params        jsonb NOT NULL DEFAULT '{}',
  scope         text[] NOT NULL,               -- merchant ids the requesting session could read
  lang          text NOT NULL DEFAULT 'en',
  tz_offset     numeric(4, 2) NOT NULL DEFAULT 8,
  format        text NOT NULL CHECK (format IN ('xlsx', 'csv')),
  file_name     text NOT NULL,
  status        text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'ready', 'failed')),
  progress      int NOT NULL DEFAULT 0,
  row_count     bigint,
  size_bytes    bigint,
  path          text,
  error         text,
  attempts      int NOT NULL DEFAULT 0,
  heartbeat_at  timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  started_at    timestamptz,
  finished_at   timestamptz,
  deleted_at    timestamptz
);
CREATE INDEX export_file_user_idx ON export_file (user_id, created_at DESC) WHERE deleted_at IS NULL;
CREATE INDEX export_file_claim_idx ON export_file (status, created_at) WHERE status IN ('queued', 'running');

-- The list's default order is by time across the caller's merchants.
CREATE INDEX txn_time_idx ON txn (txn_time DESC, id DESC);
-- Counts of the list (merchant + period, often with brand, type, result) read only this index
-- (index-only scan), not the scattered rows of a merchant across the table.
CREATE INDEX txn_mer_time_cover_idx ON txn (mer_id, txn_time) INCLUDE (tran_type, gw_response, payment_brand, payment_schema);
