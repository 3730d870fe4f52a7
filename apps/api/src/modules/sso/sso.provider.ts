/** What every SSO file shares: the audit actions, the provider row and its lookups, the caller's group, its domains and policy as read. */
import { Code, type SsoRole } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { openSecret } from '../gateway';
import type { Meta } from '../user';

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

export const who = (u: SessionUser, meta: Meta) => ({ userId: u.id, username: u.username, ip: meta.ip, userAgent: meta.userAgent });
export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

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

export const recordName = (domain: string) => `_portal-sso.${domain}`;
export const recordValue = (token: string) => `portal-sso-verification=${token}`;

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

/** Discovered OIDC configurations by provider id (dropped when the provider is saved). */
export const providerCache = new Map<number, { at: number; updated: number; config: unknown }>();
