-- Exports asked for through the merchant API (issue 31): the key that asked owns the file (the
-- export row's user is the key's creator), so a key reads and downloads only its own exports —
-- never the files its creator made in the portal, whose merchants may lie outside the key's.
CREATE TABLE api_key_export (
  export_id   bigint PRIMARY KEY REFERENCES export_file(id),
  key_id      bigint NOT NULL REFERENCES api_key(id),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_key_export_key_idx ON api_key_export (key_id);
