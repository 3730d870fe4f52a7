-- Merchant API keys (issue 31, decision 039). Only the SHA-256 of a key's secret is kept (the secret
-- is shown once, at creation). What a key may do is fixed at creation — its merchants and
-- permissions, both within its creator's at that time — and at each use it is cut to what the
-- creator still holds (a creator disabled, or whose scope shrank, takes the key's power with them).
-- No process caches a key: revoking is one UPDATE, seen by the next request on every process.
CREATE TABLE api_key (
  id            bigserial PRIMARY KEY,
  -- The public part of the key ("mpk_" + 12 characters), shown in lists and logs.
  prefix        text NOT NULL UNIQUE,
  secret_hash   text NOT NULL UNIQUE,
  name          text NOT NULL,
  -- The merchant the creating user belongs to (the owner of the key).
  owner_mer_id  varchar(15) NOT NULL REFERENCES merchant(mer_id),
  mer_ids       text[] NOT NULL,
  permissions   text[] NOT NULL,
  -- CIDR ranges a request must come from; empty = any address.
  ip_allow      text[] NOT NULL DEFAULT '{}',
  expires_at    timestamptz,
  rate_limit    integer NOT NULL DEFAULT 300,
  -- The language of the key's error messages (its creator's at creation).
  lang          text NOT NULL DEFAULT 'en' CHECK (lang IN ('en', 'zh', 'ko', 'ja')),
  created_by    int NOT NULL REFERENCES app_user(id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  revoked_at    timestamptz,
  revoked_by    int REFERENCES app_user(id),
  last_used_at  timestamptz,
  last_ip       text
);
CREATE INDEX api_key_owner_idx ON api_key (owner_mer_id, created_at DESC, id DESC);

-- Addresses a key has been used from: the first use from each is audited (one unique insert).
CREATE TABLE api_key_ip (
  key_id      bigint NOT NULL REFERENCES api_key(id),
  ip          text NOT NULL,
  first_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key_id, ip)
);

-- Idempotency-Key of /v1 writes: the first request's body hash per (key, idempotency key). A repeat
-- with another body is refused (409); the refund itself is replayed by the refund service's own
-- request key (refund_request), so parallel identical requests make one refund.
CREATE TABLE api_idempotency (
  key_id       bigint NOT NULL REFERENCES api_key(id),
  idem_key     text NOT NULL,
  operation    text NOT NULL,
  body_hash    text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key_id, idem_key)
);
CREATE INDEX api_idempotency_created_idx ON api_idempotency (created_at);

-- Main administrators (who manage users) also manage the developer keys.
UPDATE app_user SET permissions = array_append(permissions, 'developer:manage')
 WHERE user_type = 'MAIN' AND user_admin AND 'merchant:user:manage' = ANY(permissions) AND NOT ('developer:manage' = ANY(permissions));
