-- Support "view as" (issue 26, decision 046): an operator with the support role opens a merchant's
-- portal read-only for at most 30 minutes. A session of its own kind: never a row of user_session
-- (so never a merchant user's sign-in), bound to the operator's session (ops_session), its token
-- found only here (the merchant auth hook looks tokens with the `va_` prefix up in this table).
CREATE TABLE ops_view_as (
  id              bigserial PRIMARY KEY,
  operator_id     int NOT NULL REFERENCES ops_operator(id),
  ops_session_id  bigint NOT NULL REFERENCES ops_session(id),
  mer_id          varchar(15) NOT NULL REFERENCES merchant(mer_id),
  reason          text NOT NULL CHECK (length(reason) BETWEEN 5 AND 500),
  token_hash      char(64) NOT NULL UNIQUE,
  created_at      timestamptz NOT NULL,
  -- Absolute: 30 minutes after created_at, never extended.
  expires_at      timestamptz NOT NULL,
  ended_at        timestamptz,
  end_reason      text CHECK (end_reason IN ('operator', 'expired', 'operator-session-ended', 'replaced')),
  ip              text,
  CHECK (expires_at > created_at AND expires_at <= created_at + interval '30 minutes')
);
CREATE INDEX ops_view_as_operator_idx ON ops_view_as(operator_id, created_at DESC);
CREATE INDEX ops_view_as_open_idx ON ops_view_as(expires_at) WHERE ended_at IS NULL;
