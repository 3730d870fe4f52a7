-- Passkeys (WebAuthn, issue 28 item 4, decision 047): a merchant user's registered credentials, usable
-- as the second factor of a sign-in in place of the e-mailed code or TOTP.
CREATE TABLE user_passkey (
  id             serial PRIMARY KEY,
  user_id        int NOT NULL REFERENCES app_user(id),
  -- base64url credential id, as the authenticator reports it; one account per credential
  credential_id  text NOT NULL UNIQUE,
  -- the COSE public key
  public_key     bytea NOT NULL,
  -- the signature counter last seen (0 for authenticators that keep none)
  sign_count     bigint NOT NULL DEFAULT 0,
  transports     text[] NOT NULL DEFAULT '{}',
  name           text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_used_at   timestamptz
);
CREATE INDEX user_passkey_user ON user_passkey (user_id);

-- The challenges handed out, stored server side and used once: a registration's is bound to the
-- session that asked for it, a sign-in's to the sign-in attempt (the hash of a random attempt token
-- given to the browser that passed the password). Consumed by one guarded UPDATE; 2 minutes.
CREATE TABLE passkey_challenge (
  id            bigserial PRIMARY KEY,
  user_id       int NOT NULL REFERENCES app_user(id),
  purpose       text NOT NULL CHECK (purpose IN ('register', 'login')),
  challenge     text NOT NULL,
  session_id    bigint REFERENCES user_session(id),
  attempt_hash  text UNIQUE,
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  consumed_at   timestamptz
);
CREATE INDEX passkey_challenge_user ON passkey_challenge (user_id, purpose);

-- A passkey added or removed changes whether the merchant's "passkey or TOTP" rule still asks this
-- user to enrol (the session's must-enrol flag): announced like the other auth changes (migration 009).
CREATE TRIGGER user_passkey_auth_notify AFTER INSERT OR DELETE ON user_passkey FOR EACH STATEMENT
  EXECUTE FUNCTION portal_auth_notify();
