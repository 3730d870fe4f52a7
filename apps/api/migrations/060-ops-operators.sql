-- The provider's back office (issue 26, decision 038): operators sign in in a realm of their own.
-- The tables mirror the merchant realm's (app_user, user_session, access_token, refresh_token,
-- totp_recovery_code, login_name_attempt, account_link) so the same sign-in code runs on both;
-- a token of one realm is never found in the other's tables.

CREATE TABLE ops_operator (
  id                  serial PRIMARY KEY,
  username            text NOT NULL CHECK (length(username) BETWEEN 1 AND 64),
  password_hash       text NOT NULL,
  email               text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  role                text NOT NULL CHECK (role IN ('administrator', 'onboarding', 'risk', 'support', 'read-only')),
  status              text NOT NULL DEFAULT 'INACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE', 'DISABLED')),
  failed_logins       int NOT NULL DEFAULT 0,
  locked_until        timestamptz,
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  -- TOTP is mandatory: set at activation, never removed (an active operator always has it).
  totp_secret         text,
  totp_enabled_at     timestamptz,
  totp_last_step      bigint,
  created_at          timestamptz NOT NULL DEFAULT now(),
  created_by          int REFERENCES ops_operator(id),
  CHECK (status <> 'ACTIVE' OR (totp_secret IS NOT NULL AND totp_enabled_at IS NOT NULL))
);
CREATE UNIQUE INDEX ops_operator_username_uq ON ops_operator (lower(username));
CREATE UNIQUE INDEX ops_operator_email_uq ON ops_operator (lower(email));

CREATE TABLE ops_session (
  id                  bigserial PRIMARY KEY,
  user_id             int NOT NULL REFERENCES ops_operator(id),
  created_at          timestamptz NOT NULL DEFAULT now(),
  last_seen_at        timestamptz NOT NULL DEFAULT now(),
  absolute_expires_at timestamptz NOT NULL,
  revoked_at          timestamptz,
  revoke_reason       text,
  step_up_until       timestamptz,
  ip                  text,
  user_agent          text
);
CREATE INDEX ops_session_user_idx ON ops_session(user_id);

CREATE TABLE ops_access_token (
  token_hash   char(64) PRIMARY KEY,
  session_id   bigint NOT NULL REFERENCES ops_session(id),
  expires_at   timestamptz NOT NULL,
  refresh_hash char(64)
);
CREATE INDEX ops_access_token_session_idx ON ops_access_token(session_id);
CREATE INDEX ops_access_token_refresh_idx ON ops_access_token(refresh_hash);

CREATE TABLE ops_refresh_token (
  token_hash   char(64) PRIMARY KEY,
  session_id   bigint NOT NULL REFERENCES ops_session(id),
  parent_hash  char(64),
  created_at   timestamptz NOT NULL DEFAULT now(),
  used_at      timestamptz
);
CREATE INDEX ops_refresh_token_session_idx ON ops_refresh_token(session_id);

CREATE TABLE ops_recovery_code (
  id          bigserial PRIMARY KEY,
  user_id     int NOT NULL REFERENCES ops_operator(id),
  code_hash   char(64) NOT NULL,
  used_at     timestamptz
);
CREATE INDEX ops_recovery_user_idx ON ops_recovery_code(user_id);

CREATE TABLE ops_name_attempt (
  name          text PRIMARY KEY,
  failed        integer NOT NULL DEFAULT 0,
  locked_until  timestamptz,
  code_sent_at  timestamptz,
  updated_at    timestamptz NOT NULL
);

-- Activation links of operators (the CLI's first one, the back office's invitations).
CREATE TABLE ops_link (
  id           bigserial PRIMARY KEY,
  user_id      int NOT NULL REFERENCES ops_operator(id),
  purpose      text NOT NULL CHECK (purpose IN ('activate', 'reset')),
  token_hash   char(64) NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz
);
CREATE INDEX ops_link_user_idx ON ops_link(user_id, purpose);

-- Audit entries of operators name them here (user_id is a merchant user's).
ALTER TABLE audit_log ADD COLUMN operator_id int;
