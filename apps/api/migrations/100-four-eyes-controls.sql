-- Four eyes that cannot be walked around (issue 47): every change that weakens a control is itself
-- under the control.
--
-- Who created or raised each user, and when: the user who added it or gave it more permissions, and
-- the user who approved that. An approver created or raised within the policy's cool-down by a
-- request's requester cannot approve that requester's requests.
CREATE TABLE user_grant_origin (
  id          serial PRIMARY KEY,
  user_id     int NOT NULL REFERENCES app_user(id),
  granted_by  int NOT NULL REFERENCES app_user(id),
  -- created: added the user; raised: gave it more permissions (or made it an administrator);
  -- approved: approved such an add or raise.
  how         text NOT NULL CHECK (how IN ('created', 'raised', 'approved')),
  granted_at  timestamptz NOT NULL
);
CREATE INDEX user_grant_origin_user_idx ON user_grant_origin (user_id, granted_at DESC);

-- Users added before this migration: their creator, at their creation.
INSERT INTO user_grant_origin (user_id, granted_by, how, granted_at)
  SELECT id, created_by, 'created', created_at FROM app_user WHERE created_by IS NOT NULL AND created_by <> id;

-- The cool-down (days) of the rule above; a group's is a floor its sub-merchants can only lengthen.
ALTER TABLE four_eyes_policy ADD COLUMN approver_cooldown_days int NOT NULL DEFAULT 30 CHECK (approver_cooldown_days BETWEEN 0 AND 365);

-- Loosening a policy (the four-eyes policy or the inactivity limit) waits for a second administrator.
ALTER TABLE approval_request DROP CONSTRAINT approval_request_kind_check;
ALTER TABLE approval_request ADD CONSTRAINT approval_request_kind_check CHECK (kind IN ('refund', 'permission_raise', 'bank_change', 'policy_change'));
