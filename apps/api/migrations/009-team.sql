-- Team (issue 12): roles and per-user merchant scope, soft removal, the audit viewer's index,
-- and cross-process session-cache invalidation (NOTIFY from triggers, decision 013).

-- The role a user was given: a preset (ADMIN, FINANCE, REFUNDS, SUPPORT, READONLY) or CUSTOM.
-- NULL for users created before roles existed (seeded main users behave as ADMIN).
ALTER TABLE app_user ADD COLUMN role text CHECK (role IN ('ADMIN', 'FINANCE', 'REFUNDS', 'SUPPORT', 'READONLY', 'CUSTOM'));
-- Soft removal: the row (and the audit trail naming it) stays; its user name, e-mail and phone
-- stay taken until the retention job frees them 12 months later.
ALTER TABLE app_user ADD COLUMN removed_at timestamptz;
ALTER TABLE app_user ADD COLUMN created_by int REFERENCES app_user(id);
-- The status a disabled user goes back to when enabled (INACTIVE when it never activated).
ALTER TABLE app_user ADD COLUMN status_before_disable text;

-- A user restricted to some merchants of its merchant's tree. No rows = the whole derived scope
-- (its merchant, and for a group its sub-merchants); rows = that scope intersected with them.
CREATE TABLE user_merchant_scope (
  user_id  int NOT NULL REFERENCES app_user(id),
  mer_id   varchar(15) NOT NULL REFERENCES merchant(mer_id),
  PRIMARY KEY (user_id, mer_id)
);

-- The audit viewer reads by merchant and time; the retention purge by time (audit_log_at_idx).
CREATE INDEX audit_log_mer_at_idx ON audit_log (mer_id, at DESC, id DESC);

-- Main users already holding user management also get the audit viewer.
UPDATE app_user SET permissions = array_append(permissions, 'merchant:audit')
 WHERE 'merchant:user:manage' = ANY(permissions) AND NOT ('merchant:audit' = ANY(permissions));

-- Every API process caches looked-up sessions (decision 008). A change that can refuse a token or
-- change what it may do is announced on channel portal_auth (payload: the schema written), sent
-- by PostgreSQL at COMMIT, so every process listening empties its cache at once (decision 013).
CREATE FUNCTION portal_auth_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portal_auth', current_schema());
  RETURN NULL;
END
$$;

CREATE TRIGGER app_user_auth_notify AFTER UPDATE ON app_user FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.permissions IS DISTINCT FROM NEW.permissions
        OR OLD.locked_until IS DISTINCT FROM NEW.locked_until OR OLD.mer_id IS DISTINCT FROM NEW.mer_id
        OR OLD.user_type IS DISTINCT FROM NEW.user_type OR OLD.user_admin IS DISTINCT FROM NEW.user_admin
        OR OLD.removed_at IS DISTINCT FROM NEW.removed_at OR OLD.username IS DISTINCT FROM NEW.username
        OR OLD.email IS DISTINCT FROM NEW.email OR OLD.totp_enabled_at IS DISTINCT FROM NEW.totp_enabled_at)
  EXECUTE FUNCTION portal_auth_notify();
CREATE TRIGGER user_session_auth_notify AFTER UPDATE ON user_session FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.step_up_until IS DISTINCT FROM NEW.step_up_until
        OR OLD.absolute_expires_at IS DISTINCT FROM NEW.absolute_expires_at)
  EXECUTE FUNCTION portal_auth_notify();
CREATE TRIGGER access_token_auth_notify AFTER DELETE OR UPDATE ON access_token FOR EACH STATEMENT
  EXECUTE FUNCTION portal_auth_notify();
CREATE TRIGGER merchant_auth_notify AFTER INSERT OR UPDATE OR DELETE ON merchant FOR EACH STATEMENT
  EXECUTE FUNCTION portal_auth_notify();
CREATE TRIGGER user_scope_auth_notify AFTER INSERT OR UPDATE OR DELETE ON user_merchant_scope FOR EACH STATEMENT
  EXECUTE FUNCTION portal_auth_notify();
