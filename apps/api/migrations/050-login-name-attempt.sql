-- Sign-in answers alike whether the name exists (issue 28, decision 036): the wrong-password count and
-- the lock of a name that is no usable account (unknown, not activated, disabled) are kept here, per
-- attempted name (lower-cased), claimed with one upsert so parallel guesses each count. A name that
-- is a usable account keeps its count on app_user as before. code_sent_at: the 60-second resend
-- minute of "send me a code" for such a name, so it answers like a real one.
CREATE TABLE login_name_attempt (
  name          text PRIMARY KEY,
  failed        integer NOT NULL DEFAULT 0,
  locked_until  timestamptz,
  code_sent_at  timestamptz,
  updated_at    timestamptz NOT NULL
);
CREATE INDEX login_name_attempt_updated ON login_name_attempt (updated_at);
