import { randomBytes } from 'node:crypto';
import { Code, type SsoConfig, type SsoDomainRow, type SsoMapping, type SsoProvider, type SsoRole } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { encryptSecret, encryptionKey } from '../gateway';
import type { Meta } from '../user';
import { callerGroup, iso, policyOf, providerCache, providerOf, recordName, recordValue, redirectUriOf, samlAcsOf, spEntityIdOf, SsoAudit, who, type ProviderRow } from './sso.provider';

export {
  callerGroup,
  clientSecretOf,
  domainVerifiedFor,
  groupOf,
  policyOf,
  providerById,
  providerCache,
  providerForEmail,
  providerOf,
  redirectUriOf,
  samlAcsOf,
  spEntityIdOf,
  SsoAudit,
  type ProviderRow,
} from './sso.provider';
export { claimDomain, removeDomain, txtRecords, verifyDomain } from './sso.domains';
export { breakGlassGuard, savePolicy, ssoRequiredGuard } from './sso.policy';

/**
 * Enterprise sign-in's settings (issue 51, decision 064): a merchant group's identity provider, its
 * role mapping, its verified e-mail domains and the "SSO required" policy with its break-glass
 * administrators. Every call is within the caller's group (a sub-merchant follows its group; a
 * caller whose scope does not hold the group is refused); another group's rows answer as absent.
 * The client secret is sealed with PROVIDER_KEY_ENCRYPTION_KEY and never returned. Audited.
 */

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
