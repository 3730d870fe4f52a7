-- Foundation: acquirers, merchants, users, sessions, audit log, notices, durable jobs.

CREATE TABLE acquirer (
  id           serial PRIMARY KEY,
  code         text NOT NULL UNIQUE,
  brief_name   text NOT NULL,            -- instCodeBriefName
  name         text NOT NULL
);

CREATE TABLE merchant (
  mer_id            varchar(15) PRIMARY KEY CHECK (mer_id ~ '^[0-9]{15}$'),
  name              text NOT NULL,
  web_store_name    text,
  corporation_name  text,
  company_address   text,
  country           char(2),
  city              text,
  postcode          text,
  mcc               varchar(4),
  legal_reg_no      text,
  merchant_url      text,
  attribute         text NOT NULL CHECK (attribute IN ('GROUP', 'SUB', 'INDEPENDENT')),
  parent_id         varchar(15) REFERENCES merchant(mer_id),
  contractor        smallint NOT NULL DEFAULT 1 CHECK (contractor IN (1, 2)),
  acquirer_id       int REFERENCES acquirer(id),
  application_date  date,
  locked            boolean NOT NULL DEFAULT false,
  enabled           boolean NOT NULL DEFAULT true,
  default_currency  char(3) NOT NULL DEFAULT 'USD',
  settle_currency   char(3) NOT NULL DEFAULT 'USD',
  daily_limit       bigint,
  deposit           bigint NOT NULL DEFAULT 0,
  approval_status   text NOT NULL DEFAULT 'APPROVED',
  approved_at       timestamptz,
  principal_name    text, principal_email text, principal_tel text,
  operation_name    text, operation_email text, operation_tel text,
  channels          text[] NOT NULL DEFAULT '{}',
  currencies        text[] NOT NULL DEFAULT '{}',
  created_at        timestamptz NOT NULL DEFAULT now(),
  CHECK ((attribute = 'SUB') = (parent_id IS NOT NULL))
);
CREATE INDEX merchant_parent_idx ON merchant(parent_id);

CREATE TABLE app_user (
  id               serial PRIMARY KEY,
  username         text NOT NULL,
  password_hash    text NOT NULL,
  email            text NOT NULL,
  phone            text,
  mer_id           varchar(15) NOT NULL REFERENCES merchant(mer_id),
  user_type        text NOT NULL CHECK (user_type IN ('MAIN', 'SUB')),
  user_admin       boolean NOT NULL DEFAULT false,
  status           text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE', 'DISABLED')),
  permissions      text[] NOT NULL DEFAULT '{}',
  failed_logins    int NOT NULL DEFAULT 0,
  locked_until     timestamptz,
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX app_user_username_uq ON app_user (lower(username));
CREATE UNIQUE INDEX app_user_email_uq ON app_user (lower(email));

-- One sign-in: a chain of refresh tokens and the access tokens issued along it.
CREATE TABLE user_session (
  id                bigserial PRIMARY KEY,
  user_id           int NOT NULL REFERENCES app_user(id),
  created_at        timestamptz NOT NULL DEFAULT now(),
  last_seen_at      timestamptz NOT NULL DEFAULT now(),
  absolute_expires_at timestamptz NOT NULL,
  revoked_at        timestamptz,
  revoke_reason     text,
  step_up_until     timestamptz,           -- password re-checked: sensitive actions allowed until
  ip                text,
  user_agent        text
);
CREATE INDEX user_session_user_idx ON user_session(user_id);

-- Tokens are stored as SHA-256 hashes only.
CREATE TABLE access_token (
  token_hash   char(64) PRIMARY KEY,
  session_id   bigint NOT NULL REFERENCES user_session(id),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX access_token_session_idx ON access_token(session_id);

CREATE TABLE refresh_token (
  token_hash   char(64) PRIMARY KEY,
  session_id   bigint NOT NULL REFERENCES user_session(id),
  parent_hash  char(64),
  created_at   timestamptz NOT NULL DEFAULT now(),
  used_at      timestamptz
);
CREATE INDEX refresh_token_session_idx ON refresh_token(session_id);

CREATE TABLE email_code (
  id           bigserial PRIMARY KEY,
  user_id      int NOT NULL REFERENCES app_user(id),
  purpose      text NOT NULL DEFAULT 'login',
  code_hash    char(64) NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  attempts     int NOT NULL DEFAULT 0,
  consumed_at  timestamptz
);
CREATE INDEX email_code_user_idx ON email_code(user_id, purpose, created_at DESC);

CREATE TABLE audit_log (
  id          bigserial PRIMARY KEY,
  at          timestamptz NOT NULL DEFAULT now(),
  user_id     int,
  username    text,
  mer_id      varchar(15),
  action      text NOT NULL,
  outcome     text NOT NULL DEFAULT 'success',
  target      text,
  detail      jsonb NOT NULL DEFAULT '{}',
  ip          text,
  user_agent  text
);
CREATE INDEX audit_log_at_idx ON audit_log(at DESC);
CREATE INDEX audit_log_user_idx ON audit_log(user_id, at DESC);

-- Notices, in the four languages: {"en": ..., "zh": ..., "ko": ..., "ja": ...}
CREATE TABLE notice (
  id            serial PRIMARY KEY,
  title         jsonb NOT NULL,
  summary       jsonb NOT NULL,
  content       jsonb NOT NULL,
  level         text NOT NULL DEFAULT 'info' CHECK (level IN ('info', 'important')),
  link          text,
  mer_id        varchar(15) REFERENCES merchant(mer_id),   -- NULL: for every merchant
  published_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notice_published_idx ON notice(published_at DESC);

-- Durable jobs (queued exports, the daily settlement run): claimed with FOR UPDATE SKIP LOCKED.
CREATE TABLE job (
  id           bigserial PRIMARY KEY,
  kind         text NOT NULL,
  unique_key   text UNIQUE,
  payload      jsonb NOT NULL DEFAULT '{}',
  status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  run_at       timestamptz NOT NULL DEFAULT now(),
  attempts     int NOT NULL DEFAULT 0,
  locked_by    text,
  locked_at    timestamptz,
  progress     int NOT NULL DEFAULT 0,
  result       jsonb,
  error        text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz
);
CREATE INDEX job_claim_idx ON job(status, run_at) WHERE status IN ('queued', 'running');
