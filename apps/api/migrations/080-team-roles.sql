-- Named custom roles (issue 28, decision 041): a merchant defines a role once (name, description,
-- permission codes) and assigns it to many users. A user given a named role has role 'CUSTOM' and
-- team_role_id set; its app_user.permissions are the role's, copied in the transaction that
-- changes the role, so the session look-up reads one column as before and the app_user trigger of
-- 009 announces the change to every API process at COMMIT (decision 013).
CREATE TABLE team_role (
  id           serial PRIMARY KEY,
  -- The merchant that owns the role (the creator's home merchant); visible to users whose scope holds it.
  mer_id       varchar(15) NOT NULL REFERENCES merchant(mer_id),
  name         text NOT NULL,
  description  text NOT NULL DEFAULT '',
  permissions  text[] NOT NULL,
  created_by   int REFERENCES app_user(id),
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  removed_at   timestamptz
);
-- One live role of a name per merchant (case-insensitive).
CREATE UNIQUE INDEX team_role_name_idx ON team_role (mer_id, lower(name)) WHERE removed_at IS NULL;

ALTER TABLE app_user ADD COLUMN team_role_id int REFERENCES team_role(id);
CREATE INDEX app_user_team_role_idx ON app_user (team_role_id) WHERE team_role_id IS NOT NULL;
