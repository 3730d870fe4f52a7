-- The back office's merchants (issue 26, decision 038): why a merchant is locked, and by whom.
ALTER TABLE merchant ADD COLUMN lock_reason text CHECK (lock_reason IS NULL OR length(lock_reason) <= 300);
ALTER TABLE merchant ADD COLUMN locked_at timestamptz;
ALTER TABLE merchant ADD COLUMN created_by_operator int REFERENCES ops_operator(id);
CREATE INDEX merchant_created_idx ON merchant (created_at);
