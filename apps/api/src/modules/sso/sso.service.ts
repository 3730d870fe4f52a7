import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { Code, type SsoConfig, type SsoDomainRow, type SsoMapping, type SsoProvider, type SsoRole } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { encryptSecret, encryptionKey, openSecret } from '../gateway';
import type { Meta, SignInStep } from '../user';

/**
 * Enterprise sign-in's settings (issue 51, decision 064): a merchant group's identity provider, its
 * role mapping, its verified e-mail domains and the "SSO required" policy with its break-glass
 * administrators. Every call is within the caller's group (a sub-merchant follows its group; a
 * caller whose scope does not hold the group is refused); another group's rows answer as absent.
 * The client secret is sealed with PROVIDER_KEY_ENCRYPTION_KEY and never returned. Audited.
 */

export const SsoAudit = {
  providerSaved: 'sso.provider.save',
  providerRemoved: 'sso.provider.remove',
  mappingSaved: 'sso.mapping.save',
  mappingRemoved: 'sso.mapping.remove',
  domainClaimed: 'sso.domain.claim',
  domainVerified: 'sso.domain.verify',
  domainRemoved: 'sso.domain.remove',
  policySaved: 'sso.policy.save',
  userCreated: 'sso.user.create',
  userUpdated: 'sso.user.update',
  refused: 'sso.login.refused',
  /** A step-up confirmed (or refused) by a fresh re-authentication at the identity provider. */
  stepUp: 'sso.step_up',
  opsRequested: 'ops.sso.require_off.request',
  opsDecided: 'ops.sso.require_off.decide',
} as const;

export interface ProviderRow {
  id: number;
  mer_id: string;
  kind: 'oidc' | 'saml';
  name: string;
  enabled: boolean;
  issuer: string | null;
  client_id: string | null;
  client_secret_enc: string | null;
  secret_key_id: string | null;
  groups_claim: string;
  idp_entity_id: string | null;
  idp_sso_url: string | null;
  idp_certs: string[];
  idp_metadata_url: string | null;
  default_role: SsoRole | null;
  default_role_id: number | null;
  updated_at: Date;
}

const who = (u: SessionUser, meta: Meta) => ({ userId: u.id, username: u.username, ip: meta.ip, userAgent: meta.userAgent });
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The group a merchant belongs to (itself for a group or an independent merchant). */
export async function groupOf(q: Queryable, merId: string): Promise<string | null> {
  const { rows } = await q.query<{ g: string }>('SELECT COALESCE(parent_id, mer_id) AS g FROM merchant WHERE mer_id = $1', [merId]);
  return rows[0]?.g ?? null;
}

/** The caller's group, which its scope must hold: SSO is set up for the whole group. */
export async function callerGroup(deps: Deps, caller: SessionUser): Promise<string> {
  const g = await groupOf(deps.db, caller.merId);
  if (!g || !caller.scope.includes(g)) throw new AppError(Code.FORBIDDEN, 'ssoGroupOnly', {}, 403);
  return g;
}

export const redirectUriOf = (deps: Deps) => `${deps.config.publicUrl}/api/sso/oidc/callback`;
export const samlAcsOf = (deps: Deps) => `${deps.config.publicUrl}/api/sso/saml/acs`;
export const spEntityIdOf = (deps: Deps, merId: string) => `${deps.config.publicUrl}/api/sso/saml/${merId}`;

const toProvider = (deps: Deps, p: ProviderRow): SsoProvider => ({
  id: p.id,
  merId: p.mer_id,
  kind: p.kind,
  name: p.name,
  enabled: p.enabled,
  issuer: p.issuer,
  clientId: p.client_id,
  hasSecret: !!p.client_secret_enc,
  groupsClaim: p.groups_claim,
  idpEntityId: p.idp_entity_id,
  idpSsoUrl: p.idp_sso_url,
  defaultRole: p.default_role,
  defaultRoleId: p.default_role_id,
  redirectUri: p.kind === 'saml' ? samlAcsOf(deps) : redirectUriOf(deps),
  spEntityId: spEntityIdOf(deps, p.mer_id),
  spMetadataUrl: `${deps.config.publicUrl}/api/sso/saml/${p.mer_id}/metadata`,
});

export async function providerOf(q: Queryable, merId: string): Promise<ProviderRow | null> {
  const { rows } = await q.query<ProviderRow>('SELECT * FROM sso_provider WHERE mer_id = $1', [merId]);
  return rows[0] ?? null;
}

export async function providerById(q: Queryable, id: number): Promise<ProviderRow | null> {
  const { rows } = await q.query<ProviderRow>('SELECT * FROM sso_provider WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/** The client secret, opened with the server's key (a key that cannot open it: the 503 of gateway keys). */
export function clientSecretOf(deps: Deps, p: ProviderRow): string | undefined {
  return p.client_secret_enc && p.secret_key_id ? openSecret(deps.config, p.client_secret_enc, p.secret_key_id) : undefined;
}

const recordName = (domain: string) => `_portal-sso.${domain}`;
const recordValue = (token: string) => `portal-sso-verification=${token}`;

/** Everything the Team → Sign-in screen shows. */
export async function getConfig(deps: Deps, caller: SessionUser): Promise<SsoConfig> {
  const g = await callerGroup(deps, caller);
  const p = await providerOf(deps.db, g);
  const mappings = p ? await listMappings(deps.db, p.id) : [];
  const { rows: domains } = await deps.db.query<{ id: number; domain: string; token: string; verified_at: Date | null; checked_at: Date | null }>(
    'SELECT id, domain, token, verified_at, checked_at FROM sso_domain WHERE mer_id = $1 ORDER BY domain',
    [g],
  );
  const pol = await policyOf(deps.db, g);
  const { rows: admins } = await deps.db.query<{ id: number; username: string }>(
    `SELECT id, username FROM app_user WHERE mer_id = $1 AND user_admin AND status = 'ACTIVE' AND removed_at IS NULL ORDER BY username`,
    [g],
  );
  const { rows: roles } = await deps.db.query<{ id: number; name: string }>('SELECT id, name FROM team_role WHERE mer_id = $1 AND removed_at IS NULL ORDER BY lower(name)', [g]);
  return {
    merId: g,
    provider: p ? toProvider(deps, p) : null,
    mappings,
    domains: domains.map(
      (d): SsoDomainRow => ({
        id: d.id,
        domain: d.domain,
        recordName: recordName(d.domain),
        recordValue: recordValue(d.token),
        verified: !!d.verified_at,
        verifiedAt: iso(d.verified_at),
        checkedAt: iso(d.checked_at),
      }),
    ),
    ssoRequired: pol.required,
    breakGlass: pol.breakGlass,
    admins,
    roles,
  };
}

async function listMappings(q: Queryable, providerId: number): Promise<SsoMapping[]> {
  const { rows } = await q.query<{ id: number; claim_value: string; role: SsoRole; team_role_id: number | null; role_name: string | null; priority: number }>(
    `SELECT m.id, m.claim_value, m.role, m.team_role_id, r.name AS role_name, m.priority
       FROM sso_role_mapping m LEFT JOIN team_role r ON r.id = m.team_role_id
      WHERE m.provider_id = $1 ORDER BY m.priority, m.claim_value`,
    [providerId],
  );
  return rows.map((r) => ({ id: r.id, claimValue: r.claim_value, role: r.role, roleId: r.team_role_id, roleName: r.role_name, priority: r.priority }));
}

/** A named role of the group (live), or the refusal. */
async function assertRole(q: Queryable, group: string, role: SsoRole, roleId: number | null | undefined): Promise<number | null> {
  if (role !== 'CUSTOM') return null;
  if (!roleId) throw new AppError(Code.BAD_REQUEST, 'ssoRoleNeeded', {}, 400);
  const { rows } = await q.query('SELECT 1 FROM team_role WHERE id = $1 AND mer_id = $2 AND removed_at IS NULL', [roleId, group]);
  if (!rows[0]) throw notFound();
  return roleId;
}

export interface OidcSave {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  groupsClaim: string;
  enabled: boolean;
  defaultRole: SsoRole | null;
  defaultRoleId?: number | null;
}
export interface SamlSave {
  name: string;
  idpEntityId: string;
  idpSsoUrl: string;
  idpCerts: string[];
  metadataUrl: string | null;
  groupsClaim: string;
  enabled: boolean;
  defaultRole: SsoRole | null;
  defaultRoleId?: number | null;
}

/**
 * Adds or replaces the group's provider. OIDC: the issuer's discovery document is fetched (by the
 * caller, before this: `check`), the secret sealed; an edit without a secret keeps the stored one.
 */
export async function saveProvider(deps: Deps, caller: SessionUser, input: ({ kind: 'oidc' } & OidcSave) | ({ kind: 'saml' } & SamlSave), meta: Meta): Promise<SsoProvider> {
  const g = await callerGroup(deps, caller);
  const now = deps.clock.now();
  const sealed =
    input.kind === 'oidc' && input.clientSecret
      ? (() => {
          const keyId = `sso_${randomBytes(9).toString('base64url')}`;
          return { enc: encryptSecret(encryptionKey(deps.config), input.clientSecret!, keyId), keyId };
        })()
      : null;
  const row = await deps.db.tx(async (q) => {
    const defaultRoleId = input.defaultRole ? await assertRole(q, g, input.defaultRole, input.defaultRoleId) : null;
    const before = await q.query<ProviderRow>('SELECT * FROM sso_provider WHERE mer_id = $1 FOR UPDATE', [g]);
    const old = before.rows[0];
    if (input.kind === 'oidc' && !sealed && !(old?.kind === 'oidc' && old.client_secret_enc)) throw new AppError(Code.BAD_REQUEST, 'ssoSecretNeeded', {}, 400);
    const cols =
      input.kind === 'oidc'
        ? { issuer: input.issuer, client_id: input.clientId, idp_entity_id: null, idp_sso_url: null, idp_certs: [] as string[], idp_metadata_url: null }
        : { issuer: null, client_id: null, idp_entity_id: input.idpEntityId, idp_sso_url: input.idpSsoUrl, idp_certs: input.idpCerts, idp_metadata_url: input.metadataUrl };
    const secret = input.kind === 'oidc' ? (sealed ?? { enc: old!.client_secret_enc!, keyId: old!.secret_key_id! }) : { enc: null, keyId: null };
    const { rows } = await q.query<ProviderRow>(
      `INSERT INTO sso_provider (mer_id, kind, name, enabled, issuer, client_id, client_secret_enc, secret_key_id, groups_claim, idp_entity_id, idp_sso_url, idp_certs, idp_metadata_url,
                                 default_role, default_role_id, created_by, created_at, updated_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$17)
       ON CONFLICT (mer_id) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name, enabled = EXCLUDED.enabled, issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
              client_secret_enc = EXCLUDED.client_secret_enc, secret_key_id = EXCLUDED.secret_key_id, groups_claim = EXCLUDED.groups_claim, idp_entity_id = EXCLUDED.idp_entity_id,
              idp_sso_url = EXCLUDED.idp_sso_url, idp_certs = EXCLUDED.idp_certs, idp_metadata_url = EXCLUDED.idp_metadata_url, default_role = EXCLUDED.default_role,
              default_role_id = EXCLUDED.default_role_id, updated_at = EXCLUDED.updated_at
       RETURNING *`,
      [
        g,
        input.kind,
        input.name,
        input.enabled,
        cols.issuer,
        cols.client_id,
        secret.enc,
        secret.keyId,
        input.groupsClaim,
        cols.idp_entity_id,
        cols.idp_sso_url,
        cols.idp_certs,
        cols.idp_metadata_url,
        input.defaultRole,
        defaultRoleId,
        caller.id,
        now,
      ],
    );
    // A kind changed: the old kind's mappings and identities no longer mean anything.
    if (old && old.kind !== input.kind) await q.query('DELETE FROM sso_role_mapping WHERE provider_id = $1', [old.id]);
    const view = (p: ProviderRow | undefined) =>
      p && { kind: p.kind, name: p.name, enabled: p.enabled, issuer: p.issuer, clientId: p.client_id, idpEntityId: p.idp_entity_id, defaultRole: p.default_role, defaultRoleId: p.default_role_id };
    await audit(q, {
      action: SsoAudit.providerSaved,
      ...who(caller, meta),
      merId: g,
      target: `sso-provider:${rows[0].id}`,
      detail: { before: view(old) ?? null, after: view(rows[0]), secretChanged: !!sealed },
    });
    return rows[0];
  });
  providerCache.delete(row.id);
  return toProvider(deps, row);
}

/** Removes the group's provider (refused while SSO is required: nobody could sign in but break-glass). */
export async function removeProvider(deps: Deps, caller: SessionUser, meta: Meta): Promise<void> {
  const g = await callerGroup(deps, caller);
  await deps.db.tx(async (q) => {
    const p = (await q.query<ProviderRow>('SELECT * FROM sso_provider WHERE mer_id = $1 FOR UPDATE', [g])).rows[0];
    if (!p) throw notFound();
    if ((await policyOf(q, g)).required) throw new AppError(Code.CONFLICT, 'ssoRequireNeedsDomain', {}, 409);
    await q.query('DELETE FROM sso_identity WHERE provider_id = $1', [p.id]);
    await q.query('DELETE FROM sso_provider WHERE id = $1', [p.id]);
    await audit(q, { action: SsoAudit.providerRemoved, ...who(caller, meta), merId: g, target: `sso-provider:${p.id}`, detail: { kind: p.kind, name: p.name } });
    providerCache.delete(p.id);
  });
}

/** Adds or changes the mapping of one provider group/claim value to a role. */
export async function saveMapping(deps: Deps, caller: SessionUser, input: { claimValue: string; role: SsoRole; roleId?: number; priority: number }, meta: Meta): Promise<SsoMapping[]> {
  const g = await callerGroup(deps, caller);
  const p = await providerOf(deps.db, g);
  if (!p) throw new AppError(Code.CONFLICT, 'ssoNoProviderYet', {}, 409);
  await deps.db.tx(async (q) => {
    const roleId = await assertRole(q, g, input.role, input.roleId);
    await q.query(
      `INSERT INTO sso_role_mapping (mer_id, provider_id, claim_value, role, team_role_id, priority, created_at) VALUES ($1,$2,$3,$4,$5,$6,$7)
       ON CONFLICT (provider_id, claim_value) DO UPDATE SET role = EXCLUDED.role, team_role_id = EXCLUDED.team_role_id, priority = EXCLUDED.priority`,
      [g, p.id, input.claimValue, input.role, roleId, input.priority, deps.clock.now()],
    );
    await audit(q, {
      action: SsoAudit.mappingSaved,
      ...who(caller, meta),
      merId: g,
      target: `sso-provider:${p.id}`,
      detail: { claimValue: input.claimValue, role: input.role, roleId, priority: input.priority },
    });
  });
  return listMappings(deps.db, p.id);
}

export async function removeMapping(deps: Deps, caller: SessionUser, id: number, meta: Meta): Promise<void> {
  const g = await callerGroup(deps, caller);
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ claim_value: string; role: string }>('DELETE FROM sso_role_mapping WHERE id = $1 AND mer_id = $2 RETURNING claim_value, role', [id, g]);
    if (!rows[0]) throw notFound();
    await audit(q, { action: SsoAudit.mappingRemoved, ...who(caller, meta), merId: g, target: `sso-mapping:${id}`, detail: { claimValue: rows[0].claim_value, role: rows[0].role } });
  });
}

// ---- verified domains ----

/** Claims a domain: a token to publish as a TXT record; verified by `verifyDomain`. */
export async function claimDomain(deps: Deps, caller: SessionUser, domain: string, meta: Meta): Promise<SsoDomainRow> {
  const g = await callerGroup(deps, caller);
  const now = deps.clock.now();
  const taken = await deps.db.query('SELECT 1 FROM sso_domain WHERE domain = $1 AND verified_at IS NOT NULL AND mer_id <> $2', [domain, g]);
  if (taken.rows[0]) throw new AppError(Code.CONFLICT, 'ssoDomainTaken', { domain }, 409);
  const row = await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ id: number; domain: string; token: string; verified_at: Date | null; checked_at: Date | null }>(
      `INSERT INTO sso_domain (mer_id, domain, token, created_at) VALUES ($1,$2,$3,$4)
       ON CONFLICT (mer_id, domain) DO UPDATE SET domain = EXCLUDED.domain RETURNING id, domain, token, verified_at, checked_at`,
      [g, domain, randomBytes(18).toString('base64url'), now],
    );
    await audit(q, { action: SsoAudit.domainClaimed, ...who(caller, meta), merId: g, target: domain });
    return rows[0];
  });
  return {
    id: row.id,
    domain: row.domain,
    recordName: recordName(row.domain),
    recordValue: recordValue(row.token),
    verified: !!row.verified_at,
    verifiedAt: iso(row.verified_at),
    checkedAt: iso(row.checked_at),
  };
}

/** The TXT records at `name` (SSO_DNS_SERVERS, else the system's resolvers); none when the name does not exist. */
export async function txtRecords(deps: Deps, name: string): Promise<string[]> {
  const r = new Resolver({ timeout: 3000, tries: 2 });
  if (deps.config.ssoDnsServers?.length) r.setServers(deps.config.ssoDnsServers);
  try {
    return (await r.resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw err;
  }
}

/** Looks the domain's TXT record up (no transaction open meanwhile) and marks it verified when it holds the token. */
export async function verifyDomain(deps: Deps, caller: SessionUser, id: number, meta: Meta): Promise<SsoDomainRow> {
  const g = await callerGroup(deps, caller);
  const { rows } = await deps.db.query<{ id: number; domain: string; token: string; verified_at: Date | null }>('SELECT id, domain, token, verified_at FROM sso_domain WHERE id = $1 AND mer_id = $2', [
    id,
    g,
  ]);
  const d = rows[0];
  if (!d) throw notFound();
  const name = recordName(d.domain);
  const value = recordValue(d.token);
  let found: string[] = [];
  try {
    found = await txtRecords(deps, name);
  } catch {
    found = [];
  }
  const now = deps.clock.now();
  const proved = found.includes(value);
  const out = await deps.db.tx(async (q) => {
    if (proved) {
      const other = await q.query('SELECT 1 FROM sso_domain WHERE domain = $1 AND verified_at IS NOT NULL AND mer_id <> $2', [d.domain, g]);
      if (other.rows[0]) throw new AppError(Code.CONFLICT, 'ssoDomainTaken', { domain: d.domain }, 409);
    }
    const { rows: r } = await q.query<{ verified_at: Date | null; checked_at: Date }>(
      `UPDATE sso_domain SET checked_at = $2, verified_at = CASE WHEN $3::boolean THEN COALESCE(verified_at, $2) ELSE verified_at END WHERE id = $1 RETURNING verified_at, checked_at`,
      [d.id, now, proved],
    );
    await audit(q, { action: SsoAudit.domainVerified, outcome: proved ? 'success' : 'failure', ...who(caller, meta), merId: g, target: d.domain, detail: { records: found.length } });
    return r[0];
  });
  if (!out.verified_at) throw new AppError(Code.BAD_REQUEST, 'ssoDomainNotProved', { name, value }, 200);
  return { id: d.id, domain: d.domain, recordName: name, recordValue: value, verified: true, verifiedAt: iso(out.verified_at), checkedAt: iso(out.checked_at) };
}

export async function removeDomain(deps: Deps, caller: SessionUser, id: number, meta: Meta): Promise<void> {
  const g = await callerGroup(deps, caller);
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ domain: string }>('DELETE FROM sso_domain WHERE id = $1 AND mer_id = $2 RETURNING domain', [id, g]);
    if (!rows[0]) throw notFound();
    await audit(q, { action: SsoAudit.domainRemoved, ...who(caller, meta), merId: g, target: rows[0].domain });
  });
}

/** The provider (enabled) of the group that verified the e-mail's domain, if any. */
export async function providerForEmail(q: Queryable, email: string): Promise<ProviderRow | null> {
  const domain = email.split('@')[1]?.toLowerCase();
  if (!domain) return null;
  const { rows } = await q.query<ProviderRow>(`SELECT p.* FROM sso_domain d JOIN sso_provider p ON p.mer_id = d.mer_id WHERE d.domain = $1 AND d.verified_at IS NOT NULL AND p.enabled`, [domain]);
  return rows[0] ?? null;
}

/** Is this e-mail's domain verified by the group? */
export async function domainVerifiedFor(q: Queryable, group: string, email: string): Promise<boolean> {
  const domain = email.split('@')[1]?.toLowerCase() ?? '';
  const { rows } = await q.query('SELECT 1 FROM sso_domain WHERE mer_id = $1 AND domain = $2 AND verified_at IS NOT NULL', [group, domain]);
  return !!rows[0];
}

// ---- policy ----

export async function policyOf(q: Queryable, group: string): Promise<{ required: boolean; breakGlass: number[] }> {
  const { rows } = await q.query<{ sso_required: boolean }>('SELECT sso_required FROM sso_policy WHERE mer_id = $1', [group]);
  const bg = await q.query<{ user_id: number }>('SELECT user_id FROM sso_break_glass WHERE mer_id = $1 ORDER BY user_id', [group]);
  return { required: !!rows[0]?.sso_required, breakGlass: bg.rows.map((r) => r.user_id) };
}

/**
 * "SSO required" and the break-glass administrators. Requiring SSO needs an enabled provider, a
 * verified domain and at least one break-glass administrator (active, of the group), so the
 * merchant cannot lock itself out.
 */
export async function savePolicy(deps: Deps, caller: SessionUser, input: { ssoRequired: boolean; breakGlass: number[] }, meta: Meta): Promise<{ ssoRequired: boolean; breakGlass: number[] }> {
  const g = await callerGroup(deps, caller);
  const ids = [...new Set(input.breakGlass)].sort((a, b) => a - b);
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    if (ids.length) {
      const { rows } = await q.query<{ id: number }>(`SELECT id FROM app_user WHERE id = ANY($1::int[]) AND mer_id = $2 AND user_admin AND status = 'ACTIVE' AND removed_at IS NULL`, [ids, g]);
      if (rows.length !== ids.length) throw new AppError(Code.BAD_REQUEST, 'ssoBreakGlassNotAdmin', {}, 400);
    }
    if (input.ssoRequired) {
      if (!ids.length) throw new AppError(Code.BAD_REQUEST, 'ssoBreakGlassNeeded', {}, 400);
      const ready = await q.query(`SELECT 1 FROM sso_provider p WHERE p.mer_id = $1 AND p.enabled AND EXISTS (SELECT 1 FROM sso_domain d WHERE d.mer_id = $1 AND d.verified_at IS NOT NULL)`, [g]);
      if (!ready.rows[0]) throw new AppError(Code.CONFLICT, 'ssoRequireNeedsDomain', {}, 409);
    }
    const before = await policyOf(q, g);
    await q.query(
      `INSERT INTO sso_policy (mer_id, sso_required, updated_at, updated_by) VALUES ($1,$2,$3,$4)
       ON CONFLICT (mer_id) DO UPDATE SET sso_required = EXCLUDED.sso_required, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
      [g, input.ssoRequired, now, caller.username],
    );
    await q.query('DELETE FROM sso_break_glass WHERE mer_id = $1', [g]);
    if (ids.length) await q.query('INSERT INTO sso_break_glass (mer_id, user_id) SELECT $1, unnest($2::int[])', [g, ids]);
    await audit(q, {
      action: SsoAudit.policySaved,
      ...who(caller, meta),
      merId: g,
      detail: { before: { ssoRequired: before.required, breakGlass: before.breakGlass }, after: { ssoRequired: input.ssoRequired, breakGlass: ids } },
    });
    return { ssoRequired: input.ssoRequired, breakGlass: ids };
  });
}

/**
 * The sign-in guard of "SSO required" (user module's `addSignInGuard`): a user of a group that
 * requires SSO is refused passwords, e-mailed codes and resets unless named break-glass.
 */
export async function ssoRequiredGuard(q: Queryable, user: { id: number; mer_id: string }, step?: SignInStep): Promise<void> {
  const { rows } = await q.query<{ refused: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM merchant m JOIN sso_policy p ON p.mer_id = COALESCE(m.parent_id, m.mer_id)
        WHERE m.mer_id = $2 AND p.sso_required
          AND NOT EXISTS (SELECT 1 FROM sso_break_glass b WHERE b.mer_id = p.mer_id AND b.user_id = $1)) AS refused`,
    [user.id, user.mer_id],
  );
  if (!rows[0].refused) return;
  // The refund password of a signed-in user: confirmed at the identity provider instead (sso.stepup.ts).
  if (step === 'step-up') throw new AppError(Code.STEP_UP_USE_SSO, 'stepUpUseSso', {}, 200);
  throw new AppError(Code.SSO_REQUIRED, 'ssoRequired', {}, 200);
}

/**
 * The access guard of "SSO required" (user module's `addAccessGuard`): while the merchant group
 * requires SSO, its last usable break-glass administrator (active, an administrator, not removed)
 * may not be disabled, removed or made a non-administrator — the merchant would lock itself out.
 * Name another break-glass administrator first, or turn "SSO required" off.
 */
export async function breakGlassGuard(q: Queryable, user: { id: number; mer_id: string }): Promise<void> {
  const { rows } = await q.query<{ last: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM merchant m JOIN sso_policy p ON p.mer_id = COALESCE(m.parent_id, m.mer_id) AND p.sso_required
         JOIN sso_break_glass b ON b.mer_id = p.mer_id AND b.user_id = $1
        WHERE m.mer_id = $2
          AND NOT EXISTS (SELECT 1 FROM sso_break_glass o JOIN app_user u ON u.id = o.user_id
                           WHERE o.mer_id = p.mer_id AND o.user_id <> $1 AND u.user_admin AND u.status = 'ACTIVE' AND u.removed_at IS NULL)) AS last`,
    [user.id, user.mer_id],
  );
  if (rows[0].last) throw new AppError(Code.LAST_ADMIN, 'ssoLastBreakGlass', {}, 200);
}

/** Discovered OIDC configurations by provider id (dropped when the provider is saved). */
export const providerCache = new Map<number, { at: number; updated: number; config: unknown }>();
