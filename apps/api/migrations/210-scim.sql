-- SCIM 2.0 provisioning and the sign-in IP allow-list per merchant (issue 51, decision 065).
-- Everything is kept per merchant group: `mer_id` is the group's (or an independent merchant's)
-- own id; a sub-merchant follows its group.

-- Bearer tokens an identity provider provisions with: only the SHA-256 of the secret is stored.
CREATE TABLE scim_token (
  id           serial PRIMARY KEY,
  mer_id       varchar(15) NOT NULL REFERENCES merchant(mer_id),
  name         text NOT NULL,
  prefix       text NOT NULL UNIQUE,
  secret_hash  char(64) NOT NULL UNIQUE,
  lang         text NOT NULL DEFAULT 'en',
  created_by   int NOT NULL REFERENCES app_user(id),
  created_at   timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at   timestamptz,
  revoked_by   int REFERENCES app_user(id)
);
CREATE INDEX scim_token_mer_idx ON scim_token (mer_id, created_at DESC);

-- A portal user the directory owns: its SCIM id, external id, names and version (ETag).
CREATE TABLE scim_user (
  user_id      int PRIMARY KEY REFERENCES app_user(id),
  scim_id      uuid NOT NULL UNIQUE,
  mer_id       varchar(15) NOT NULL REFERENCES merchant(mer_id),
  external_id  text,
  given_name   text,
  family_name  text,
  display_name text,
  version      int NOT NULL DEFAULT 1,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX scim_user_external_uq ON scim_user (mer_id, external_id) WHERE external_id IS NOT NULL;

CREATE TABLE scim_group (
  id           uuid PRIMARY KEY,
  mer_id       varchar(15) NOT NULL REFERENCES merchant(mer_id),
  display_name text NOT NULL,
  external_id  text,
  version      int NOT NULL DEFAULT 1,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX scim_group_name_uq ON scim_group (mer_id, lower(display_name));

CREATE TABLE scim_group_member (
  group_id     uuid NOT NULL REFERENCES scim_group(id) ON DELETE CASCADE,
  user_id      int NOT NULL REFERENCES app_user(id),
  PRIMARY KEY (group_id, user_id)
);
CREATE INDEX scim_group_member_user_idx ON scim_group_member (user_id);

-- Group → named role: a provisioned user's role is that of the first mapping (by id) among its groups.
CREATE TABLE scim_role_map (
  id           serial PRIMARY KEY,
  mer_id       varchar(15) NOT NULL REFERENCES merchant(mer_id),
  group_name   text NOT NULL,
  team_role_id int NOT NULL REFERENCES team_role(id),
  created_by   int NOT NULL REFERENCES app_user(id),
  created_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX scim_role_map_uq ON scim_role_map (mer_id, lower(group_name));

-- The addresses sign-ins of the merchant group's users may come from (empty or absent: any).
CREATE TABLE signin_ip_allow (
  mer_id       varchar(15) PRIMARY KEY REFERENCES merchant(mer_id),
  ranges       text[] NOT NULL,
  updated_by   int REFERENCES app_user(id),
  updated_at   timestamptz NOT NULL
);

-- Administrators manage provisioning (as developer:manage was granted, migrations 070 and 075).
UPDATE app_user SET permissions = array_append(permissions, 'team:scim:manage')
 WHERE user_admin AND NOT ('team:scim:manage' = ANY(permissions));
