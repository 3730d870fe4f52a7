-- Issue 25, inbound half (decision 032): gateway connections, their signing keys, the signatures
-- already seen (replay guard), which connection reported which transaction, file imports and the
-- reconciliation of the feed.

-- A gateway connection: a caller of /provider/v1, reporting for the merchants listed.
CREATE TABLE gateway_connection (
  id          text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9_-]{1,31}$'),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 128),
  merchants   text[] NOT NULL DEFAULT '{}',
  enabled     boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Signing keys: the secret is stored encrypted (AES-256-GCM, PROVIDER_KEY_ENCRYPTION_KEY):
-- base64 of iv (12) | tag (16) | ciphertext. Two or more may be valid at once (rotation).
CREATE TABLE gateway_key (
  key_id         text PRIMARY KEY CHECK (key_id ~ '^[A-Za-z0-9_-]{8,64}$'),
  connection_id  text NOT NULL REFERENCES gateway_connection (id),
  secret_enc     text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  revoked_at     timestamptz
);
CREATE INDEX gateway_key_connection_idx ON gateway_key (connection_id);

-- Signatures seen within the 5-minute window (either side): a second use is a replay. The unique
-- insert is the atomic check; rows past expires_at are purged by the daily reconciliation job.
CREATE TABLE gateway_seen_signature (
  signature   text PRIMARY KEY,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX gateway_seen_signature_exp_idx ON gateway_seen_signature (expires_at);

-- The feed's claim on a gateway transaction id (the unique insert that makes two identical batches
-- in parallel safe) and the connection that reported it (reconciliation is per connection and day).
CREATE TABLE gateway_txn (
  gw_trans_id    text PRIMARY KEY,
  connection_id  text NOT NULL REFERENCES gateway_connection (id),
  txn_date       date NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX gateway_txn_day_idx ON gateway_txn (connection_id, txn_date);
