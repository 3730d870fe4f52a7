-- Enterprise sign-in (issue 51, decision 064): identity providers per merchant group, their
-- role mapping, the IdP subjects linked to portal users, verified e-mail domains, the "SSO
-- required" policy with its break-glass administrators, SAML assertions seen (replay), and the
-- back office's four-eyes requests to lift "SSO required".

-- One identity provider per merchant group (a sub-merchant follows its group).
CREATE TABLE sso_provider (
  id                 serial PRIMARY KEY,
  mer_id             varchar(15) NOT NULL UNIQUE REFERENCES merchant(mer_id),
  kind               text NOT NULL CHECK (kind IN ('oidc', 'saml')),
  name               text NOT NULL,
  enabled            boolean NOT NULL DEFAULT true,
  -- OIDC: the issuer (discovery at {issuer}/.well-known/openid-configuration), the client, and the
  -- client secret sealed with PROVIDER_KEY_ENCRYPTION_KEY (AES-256-GCM, the key id its AAD).
  issuer             text,
  client_id          text,
  client_secret_enc  text,
  secret_key_id      text,
  -- The claim holding the groups (OIDC; SAML: the attribute name).
  groups_claim       text NOT NULL DEFAULT 'groups',
  -- SAML: the IdP's entity id, sign-in URL and signing certificates (PEM bodies), from its metadata.
  idp_entity_id      text,
  idp_sso_url        text,
  idp_certs          text[] NOT NULL DEFAULT '{}',
  idp_metadata_url   text,
  -- No mapping matches: the role given (a preset, or a named role), or NULL = the sign-in is refused.
  default_role       text CHECK (default_role IN ('FINANCE', 'REFUNDS', 'SUPPORT', 'READONLY', 'CUSTOM')),
  default_role_id    int REFERENCES team_role(id),
  created_by         int REFERENCES app_user(id),
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);

-- A group (or claim value) of the IdP → a role of the portal. The first match in priority order wins.
CREATE TABLE sso_role_mapping (
  id           serial PRIMARY KEY,
  mer_id       varchar(15) NOT NULL REFERENCES merchant(mer_id),
  provider_id  int NOT NULL REFERENCES sso_provider(id) ON DELETE CASCADE,
  claim_value  text NOT NULL,
  role         text NOT NULL CHECK (role IN ('FINANCE', 'REFUNDS', 'SUPPORT', 'READONLY', 'CUSTOM')),
  team_role_id int REFERENCES team_role(id),
  priority     int NOT NULL DEFAULT 100,
  created_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX sso_role_mapping_value_idx ON sso_role_mapping (provider_id, claim_value);

-- The IdP's subject of a portal user (created just in time at the first sign-in).
CREATE TABLE sso_identity (
  id           serial PRIMARY KEY,
  mer_id       varchar(15) NOT NULL REFERENCES merchant(mer_id),
  provider_id  int NOT NULL REFERENCES sso_provider(id) ON DELETE CASCADE,
  subject      text NOT NULL,
  user_id      int NOT NULL REFERENCES app_user(id),
  -- The name and e-mail the provider gave at the last sign-in.
  name         text,
  email        text NOT NULL,
  created_at   timestamptz NOT NULL,
  last_login_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX sso_identity_subject_idx ON sso_identity (provider_id, subject);
CREATE UNIQUE INDEX sso_identity_user_idx ON sso_identity (user_id);

-- E-mail domains a merchant group claims, proved by a DNS TXT record `portal-verification=<token>`.
CREATE TABLE sso_domain (
  id           serial PRIMARY KEY,
  mer_id       varchar(15) NOT NULL REFERENCES merchant(mer_id),
  domain       text NOT NULL,
  token        text NOT NULL,
  verified_at  timestamptz,
  checked_at   timestamptz,
  created_at   timestamptz NOT NULL
);
-- A domain is claimed once per merchant; verified by one merchant at most.
CREATE UNIQUE INDEX sso_domain_claim_idx ON sso_domain (mer_id, domain);
CREATE UNIQUE INDEX sso_domain_verified_idx ON sso_domain (domain) WHERE verified_at IS NOT NULL;

-- "SSO required" per merchant group and who changed it last.
CREATE TABLE sso_policy (
  mer_id        varchar(15) PRIMARY KEY REFERENCES merchant(mer_id),
  sso_required  boolean NOT NULL DEFAULT false,
  updated_at    timestamptz NOT NULL,
  updated_by    text
);

-- Named administrators who keep password + second factor while SSO is required.
CREATE TABLE sso_break_glass (
  mer_id   varchar(15) NOT NULL REFERENCES merchant(mer_id),
  user_id  int NOT NULL REFERENCES app_user(id),
  PRIMARY KEY (mer_id, user_id)
);

-- SAML assertions already used (their ID until NotOnOrAfter): a replay is refused.
CREATE TABLE sso_saml_seen (
  provider_id  int NOT NULL REFERENCES sso_provider(id) ON DELETE CASCADE,
  assertion_id text NOT NULL,
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (provider_id, assertion_id)
);

-- The back office lifts "SSO required" of a merchant locked out of its IdP: one operator asks,
-- another approves (four eyes).
CREATE TABLE sso_ops_request (
  id             serial PRIMARY KEY,
  mer_id         varchar(15) NOT NULL REFERENCES merchant(mer_id),
  reason         text NOT NULL,
  status         text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  requested_by   int NOT NULL REFERENCES ops_operator(id),
  requested_at   timestamptz NOT NULL,
  decided_by     int REFERENCES ops_operator(id),
  decided_at     timestamptz
);
CREATE UNIQUE INDEX sso_ops_request_open_idx ON sso_ops_request (mer_id) WHERE status = 'PENDING';

-- SAML: the AuthnRequest IDs the portal sent (node-saml's InResponseTo cache), used up by the response.
CREATE TABLE sso_saml_request (
  request_id   text PRIMARY KEY,
  value        text NOT NULL,
  created_at   timestamptz NOT NULL
);
