-- Idempotency on every POST of /v1 (issue 50; decision 063): the first answer of a key is kept with
-- it (status and body, replayed with Idempotent-Replayed: true) for 24 hours, then the
-- v1.idempotency.purge job deletes the row. A row without an answer is a request still running.
ALTER TABLE api_idempotency ADD COLUMN response_status int;
ALTER TABLE api_idempotency ADD COLUMN response_body text;
