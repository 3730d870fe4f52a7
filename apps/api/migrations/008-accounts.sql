-- Accounts (issue 11): activation and reset links, password history, phone and WeChat binding,
-- TOTP second factor with recovery codes, the merchant's "second factor required" setting.

-- Single-use e-mailed links: the token is 256 random bits, only its SHA-256 is stored.
CREATE TABLE account_link (
  id           bigserial PRIMARY KEY,
  user_id      int NOT NULL REFERENCES app_user(id),
  purpose      text NOT NULL CHECK (purpose IN ('activate', 'reset')),
  token_hash   char(64) NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz
);
CREATE INDEX account_link_user_idx ON account_link(user_id, purpose);

-- Earlier password hashes (argon2id): a new password may not be one of the last four.
CREATE TABLE password_history (
  id             bigserial PRIMARY KEY,
  user_id        int NOT NULL REFERENCES app_user(id),
  password_hash  text NOT NULL,
  created_at     timestamptz NOT NULL
);
CREATE INDEX password_history_user_idx ON password_history(user_id, id DESC);

ALTER TABLE app_user ADD COLUMN phone_bound_at timestamptz;
ALTER TABLE app_user ADD COLUMN wechat_openid text;
ALTER TABLE app_user ADD COLUMN wechat_unionid text;
ALTER TABLE app_user ADD COLUMN wechat_nickname text;
ALTER TABLE app_user ADD COLUMN wechat_bound_at timestamptz;
-- TOTP: the base32 secret (pending until the first code confirms it), enabled once confirmed.
ALTER TABLE app_user ADD COLUMN totp_secret text;
ALTER TABLE app_user ADD COLUMN totp_enabled_at timestamptz;
-- The last TOTP time step accepted: a code is never accepted twice.
ALTER TABLE app_user ADD COLUMN totp_last_step bigint;
CREATE UNIQUE INDEX app_user_phone_uq ON app_user (phone) WHERE phone IS NOT NULL;
CREATE UNIQUE INDEX app_user_wechat_uq ON app_user (wechat_openid) WHERE wechat_openid IS NOT NULL;

-- Ten single-use recovery codes per enrolment, stored hashed.
CREATE TABLE totp_recovery_code (
  id          bigserial PRIMARY KEY,
  user_id     int NOT NULL REFERENCES app_user(id),
  code_hash   char(64) NOT NULL,
  used_at     timestamptz
);
CREATE INDEX totp_recovery_user_idx ON totp_recovery_code(user_id);

-- SMS codes for phone binding: 6 digits, 5 minutes, 60 s between sends, 5 tries.
CREATE TABLE sms_code (
  id           bigserial PRIMARY KEY,
  user_id      int NOT NULL REFERENCES app_user(id),
  phone        text NOT NULL,
  code_hash    char(64) NOT NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  attempts     int NOT NULL DEFAULT 0,
  consumed_at  timestamptz
);
CREATE INDEX sms_code_user_idx ON sms_code(user_id, created_at DESC);

-- OAuth2 state of a round trip to WeChat (any purpose: binding a user, signing in, binding a
-- cashier …): single use, 10 minutes; `data` is what the purpose needs back (a user id …).
CREATE TABLE oauth_state (
  state_hash   char(64) PRIMARY KEY,
  purpose      text NOT NULL,
  data         jsonb NOT NULL DEFAULT '{}',
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz
);

-- The main user may require every user of the merchant to enrol a second factor.
ALTER TABLE merchant ADD COLUMN require_totp boolean NOT NULL DEFAULT false;
