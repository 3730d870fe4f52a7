-- Rate-limit counters shared by every API process on one PostgreSQL (issue 16: several processes).
-- One row per (route, client key): hits in the current window and when the window ends. Written
-- with one atomic upsert per limited request (apps/api/src/plugins/rate-limit-store.ts); rows of
-- windows long past are deleted now and then by the same code.
CREATE TABLE rate_limit (
  key       text PRIMARY KEY,
  hits      integer NOT NULL,
  reset_at  timestamptz NOT NULL
);
CREATE INDEX rate_limit_reset_idx ON rate_limit (reset_at);
