import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { Code, ROLE_PRESETS, USERNAME_RE, type SsoRole } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { audit, AuditAction } from '../../lib/audit';
import { newToken, safeEqual, sha256 } from '../../lib/crypto';
import { consumeOAuthState, createOAuthState, peekOAuthState } from '../account';
import { UNUSABLE_PASSWORD } from '../../lib/crypto';
import { runSignInChecks, startSession, type Meta, type TokenPair } from '../user';
import { finishStepUp, stepUpFailed, type StepUpState } from './sso.stepup';
import { clientSecretOf, domainVerifiedFor, providerById, providerCache, providerForEmail, redirectUriOf, saveProvider, SsoAudit, type OidcSave, type ProviderRow } from './sso.service';

/**
 * The SSO sign-in (issue 51, decision 064). OIDC: the authorization code flow with PKCE (S256),
 * `state` and `nonce`, through `openid-client`; the state is bound to the browser that asked (as
 * WeChat's, issue 28): a random value goes to it as an HttpOnly cookie, its hash into the stored
 * state with the nonce and the PKCE verifier; the callback accepts the state only with that
 * cookie. The provider's answer (ID token checked by openid-client: issuer, audience, signature,
 * expiry, nonce) makes or updates the user just in time, then a one-time ticket (10 minutes)
 * the sign-in page trades for a normal portal session. No transaction is open during a call to
 * the provider.
 */

export const SSO_OIDC = 'sso-oidc';
export const SSO_TICKET = 'sso-ticket';
export const SSO_BROWSER_COOKIE = 'mp_sso';

/**
 * The cookie carrying the browser's half of an SSO round trip (HttpOnly, path /api/sso). Lax: the
 * OIDC provider's redirect back is a top-level GET, which brings it. A SAML IdP answers with a
 * cross-site POST, which a Lax cookie does not ride: over https that round trip's cookie is
 * SameSite=None (and Secure, as browsers require).
 */
export function ssoBrowserCookie(value: string, secure: boolean, maxAge = 600, crossSitePost = false): string {
  const sameSite = crossSitePost && secure ? 'None' : 'Lax';
  return `${SSO_BROWSER_COOKIE}=${value}; Path=/api/sso; Max-Age=${maxAge}; HttpOnly; SameSite=${sameSite}${secure ? '; Secure' : ''}`;
}
export function ssoBrowserOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === SSO_BROWSER_COOKIE) return v.join('=');
  }
  return undefined;
}

const DISCOVERY_TTL_MS = 10 * 60_000;

/** The provider's discovered configuration (cached 10 minutes per provider version). */
export async function oidcConfig(deps: Deps, p: ProviderRow): Promise<oidc.Configuration> {
  const hit = providerCache.get(p.id);
  const updated = new Date(p.updated_at).getTime();
  if (hit && hit.updated === updated && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config as oidc.Configuration;
  const config = await discover(deps, p.issuer!, p.client_id!, clientSecretOf(deps, p));
  providerCache.set(p.id, { at: Date.now(), updated, config });
  return config;
}

/** OIDC discovery of an issuer (plain http only outside production, for a provider on loopback). */
export async function discover(deps: Deps, issuer: string, clientId: string, clientSecret?: string): Promise<oidc.Configuration> {
  const insecure = deps.config.env !== 'production' && issuer.startsWith('http:');
  return oidc.discovery(new URL(issuer), clientId, clientSecret ? { client_secret: clientSecret } : undefined, clientSecret ? oidc.ClientSecretPost(clientSecret) : oidc.None(), {
    timeout: 10,
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
}

/** Adds or replaces the OIDC provider once its issuer's discovery document answers (no transaction open meanwhile). */
export async function saveOidcProvider(deps: Deps, caller: SessionUser, b: Omit<OidcSave, 'groupsClaim' | 'enabled' | 'defaultRole'> & Partial<OidcSave>, meta: Meta) {
  try {
    await discover(deps, b.issuer, b.clientId, b.clientSecret);
  } catch {
    throw new AppError(Code.BAD_REQUEST, 'ssoDiscoveryFailed', { issuer: b.issuer }, 400);
  }
  return saveProvider(deps, caller, { groupsClaim: 'groups', enabled: true, defaultRole: null, ...b, kind: 'oidc' }, meta);
}

/** Is SSO set up for this e-mail address (a verified domain of a group with an enabled provider)? */
export async function discoverEmail(deps: Deps, email: string): Promise<{ sso: boolean }> {
  return { sso: !!(await providerForEmail(deps.db, email)) };
}

/** The OIDC provider's authorization URL for this e-mail, and the browser's half of the state (for the cookie). */
export async function oidcStart(deps: Deps, p: ProviderRow, email: string, meta: Meta, stepUp?: Record<string, unknown>): Promise<{ url: string; browser: string }> {
  let config: oidc.Configuration;
  try {
    config = await oidcConfig(deps, p);
  } catch (err) {
    await audit(deps.db, {
      action: SsoAudit.refused,
      outcome: 'failure',
      merId: p.mer_id,
      username: email,
      detail: { reason: 'discovery', error: String((err as Error).message).slice(0, 200) },
      ...meta,
    });
    throw new AppError(Code.SSO_FAILED, 'ssoFailed');
  }
  const browser = newToken();
  const verifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const state = await createOAuthState(deps.db, deps.clock.now(), SSO_OIDC, { providerId: p.id, browser: sha256(browser), nonce, verifier, ...(stepUp ? { stepUp } : {}) });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUriOf(deps),
    scope: 'openid email profile',
    response_type: 'code',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    login_hint: email,
    // A step-up (issue 51): the provider must authenticate the user afresh (its own second-factor rules apply).
    ...(stepUp ? { prompt: 'login', max_age: '0' } : {}),
  });
  return { url: url.href, browser };
}

export interface SsoIdentity {
  subject: string;
  email: string;
  name: string | null;
  groups: string[];
}

/**
 * The provider sent the browser back with `code` and `state` (the whole query as received in
 * `query`). Returns where the browser goes next: the sign-in page with a one-time ticket, or with
 * `sso=failed` (audited with the reason).
 */
export async function oidcCallback(deps: Deps, query: string, browser: string | undefined, meta: Meta): Promise<string> {
  const params = new URLSearchParams(query);
  const state = params.get('state') ?? '';
  const now = deps.clock.now();
  const fail = async (reason: string, merId?: string, extra: Record<string, unknown> = {}) => {
    await audit(deps.db, { action: AuditAction.loginFailure, outcome: 'failure', merId, detail: { via: 'sso', reason, ...extra }, ...meta });
    return '/login?sso=failed';
  };
  const data = await consumeOAuthState(deps.db, state, SSO_OIDC, now);
  if (!data) return fail('state');
  if (!browser || !safeEqual(String(data.browser ?? ''), sha256(browser))) return fail('other-browser');
  const p = await providerById(deps.db, Number(data.providerId));
  if (!p || !p.enabled || p.kind !== 'oidc') return fail('provider');
  let identity: SsoIdentity;
  let authTime: number | undefined;
  try {
    const config = await oidcConfig(deps, p);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(`${redirectUriOf(deps)}?${params.toString()}`), {
      pkceCodeVerifier: String(data.verifier),
      expectedState: state,
      expectedNonce: String(data.nonce),
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    // The user info endpoint may hold claims the ID token leaves out (e.g. groups).
    let extra: Record<string, unknown> = {};
    if ((claims[p.groups_claim] === undefined || !claims.email) && tokens.access_token) {
      extra = (await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)) as Record<string, unknown>;
    }
    identity = identityOf({ ...extra, ...claims }, p.groups_claim);
    authTime = typeof claims.auth_time === 'number' ? claims.auth_time * 1000 : undefined;
  } catch (err) {
    if (data.stepUp) return stepUpFailed(deps, data.stepUp as StepUpState, p, 'provider-answer', meta);
    return fail('provider-answer', p.mer_id, { error: String((err as Error).message).slice(0, 200) });
  }
  if (data.stepUp) return finishStepUp(deps, p, data.stepUp as StepUpState, identity, authTime, meta, (id) => provisionUser(deps, p, id, meta));
  return finishSso(deps, p, identity, meta);
}

/** The identity in a provider's claims (OIDC's, or a SAML assertion's attributes). */
export function identityOf(claims: Record<string, unknown>, groupsClaim: string): SsoIdentity {
  const sub = String(claims.sub ?? '');
  const email = String(claims.email ?? '')
    .trim()
    .toLowerCase();
  if (!sub || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error('the provider gave no subject or e-mail');
  if (claims.email_verified === false) throw new Error('the provider says the e-mail is not verified');
  const raw = claims[groupsClaim];
  const groups = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw]).map(String).slice(0, 200);
  const name = claims.name ?? claims.preferred_username ?? null;
  return { subject: sub.slice(0, 255), email: email.slice(0, 254), name: name === null ? null : String(name).slice(0, 200), groups };
}

/** JIT provisioning then the ticket; a refusal is audited and sends the browser back with `sso=failed`. */
export async function finishSso(deps: Deps, p: ProviderRow, identity: SsoIdentity, meta: Meta): Promise<string> {
  try {
    const userId = await provisionUser(deps, p, identity, meta);
    const ticket = await createOAuthState(deps.db, deps.clock.now(), SSO_TICKET, { userId, providerId: p.id });
    return `/login?ssoTicket=${ticket}`;
  } catch (err) {
    const reason = err instanceof AppError ? String(err.params.reason ?? err.key) : String((err as Error).message).slice(0, 200);
    await audit(deps.db, {
      action: SsoAudit.refused,
      outcome: 'failure',
      merId: p.mer_id,
      username: identity.email,
      detail: { via: 'sso', reason, subject: identity.subject, groups: identity.groups.slice(0, 20) },
      ...meta,
    });
    return '/login?sso=failed';
  }
}

const refuse = (reason: string) => new AppError(Code.SSO_FAILED, 'ssoFailed', { reason });

/** The role the provider's groups map to: the first mapping (by priority) matching, else the default, else null. */
export async function mappedRole(q: Queryable, p: ProviderRow, groups: string[]): Promise<{ role: SsoRole; roleId: number | null } | null> {
  const { rows } = await q.query<{ role: SsoRole; team_role_id: number | null }>(
    'SELECT role, team_role_id FROM sso_role_mapping WHERE provider_id = $1 AND claim_value = ANY($2::text[]) ORDER BY priority, claim_value LIMIT 1',
    [p.id, groups],
  );
  if (rows[0]) return { role: rows[0].role, roleId: rows[0].team_role_id };
  return p.default_role ? { role: p.default_role, roleId: p.default_role_id } : null;
}

async function permissionsOf(q: Queryable, group: string, role: { role: SsoRole; roleId: number | null }): Promise<string[]> {
  if (role.role !== 'CUSTOM') return [...ROLE_PRESETS[role.role]];
  const { rows } = await q.query<{ permissions: string[] }>('SELECT permissions FROM team_role WHERE id = $1 AND mer_id = $2 AND removed_at IS NULL', [role.roleId, group]);
  if (!rows[0]) throw refuse('role-removed');
  return rows[0].permissions;
}

interface LinkedUser {
  id: number;
  username: string;
  email: string;
  mer_id: string;
  status: string;
  user_admin: boolean;
  role: string | null;
  team_role_id: number | null;
  permissions: string[];
  removed_at: Date | null;
}

/**
 * Just-in-time users (issue 51): the provider's subject is linked to one portal user of the
 * provider's group. First sign-in: a user of the group whose e-mail (in a domain the group
 * verified) is the provider's is linked; else a new active user is made with the mapped role (no
 * password). Later sign-ins update the e-mail, name and role (administrators' grants are left to
 * the team screen). No role mapped and no default: refused — and an existing user's sessions end.
 * Audited (created / updated, with before and after). Parallel first sign-ins of one subject make
 * one user (the unique indexes decide; the loser reads the winner's link).
 */
export async function provisionUser(deps: Deps, p: ProviderRow, id: SsoIdentity, meta: Meta, attempt = 0): Promise<number> {
  const now = deps.clock.now();
  const group = p.mer_id;
  let out: number | { refused: string };
  try {
    out = await deps.db.tx(async (q): Promise<number | { refused: string }> => {
      const role = await mappedRole(q, p, id.groups);
      const linked = await q.query<LinkedUser & { identity_id: number }>(
        `SELECT u.id, u.username, u.email, u.mer_id, u.status, u.user_admin, u.role, u.team_role_id, u.permissions, u.removed_at, i.id AS identity_id
           FROM sso_identity i JOIN app_user u ON u.id = i.user_id WHERE i.provider_id = $1 AND i.subject = $2 FOR UPDATE OF i, u`,
        [p.id, id.subject],
      );
      let u: (LinkedUser & { identity_id?: number }) | undefined = linked.rows[0];
      if (!role) {
        // The provider took the user's access away: its open sessions end (committed, then refused).
        if (u) await q.query(`UPDATE user_session SET revoked_at = $2, revoke_reason = 'sso-no-role' WHERE user_id = $1 AND revoked_at IS NULL`, [u.id, now]);
        return { refused: 'no-role-mapped' };
      }
      if (!u) {
        if (!(await domainVerifiedFor(q, group, id.email))) throw refuse('domain-not-verified');
        const byEmail = await q.query<LinkedUser>(
          `SELECT id, username, email, mer_id, status, user_admin, role, team_role_id, permissions, removed_at FROM app_user WHERE lower(email) = $1 FOR UPDATE`,
          [id.email],
        );
        const existing = byEmail.rows[0];
        if (existing) {
          const g = (await q.query<{ g: string }>('SELECT COALESCE(parent_id, mer_id) AS g FROM merchant WHERE mer_id = $1', [existing.mer_id])).rows[0]?.g;
          if (g !== group) throw refuse('email-of-another-merchant');
          u = existing;
        }
      }
      if (u && (u.removed_at || u.status === 'DISABLED')) throw refuse('user-disabled');
      const permissions = await permissionsOf(q, group, role);
      if (!u) {
        const username = USERNAME_RE.test(id.email) && !(await q.query('SELECT 1 FROM app_user WHERE lower(username) = $1', [id.email])).rows[0] ? id.email : `sso-${randomBytes(6).toString('hex')}`;
        const { rows } = await q.query<{ id: number }>(
          `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, status, role, team_role_id, permissions, created_at, password_changed_at, lang)
           VALUES ($1,$2,$3,$4,'SUB',false,'ACTIVE',$5,$6,$7,$8,$8,$9) RETURNING id`,
          [username, UNUSABLE_PASSWORD, id.email, group, role.role, role.roleId, permissions, now, meta.lang ?? null],
        );
        const userId = rows[0].id;
        await q.query('INSERT INTO sso_identity (mer_id, provider_id, subject, user_id, name, email, created_at, last_login_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$7)', [
          group,
          p.id,
          id.subject,
          userId,
          id.name,
          id.email,
          now,
        ]);
        await audit(q, {
          action: SsoAudit.userCreated,
          userId,
          username,
          merId: group,
          target: username,
          detail: { provider: p.id, subject: id.subject, role: role.role, roleId: role.roleId, groups: id.groups.slice(0, 20) },
          ...meta,
        });
        return userId;
      }
      // A known user: e-mail, name and (for non-administrators) role follow the provider.
      const manageRole = !u.user_admin;
      const changed = manageRole && (u.role !== role.role || u.team_role_id !== role.roleId || [...u.permissions].sort().join() !== [...permissions].sort().join());
      await q.query(
        `UPDATE app_user SET email = $2${manageRole ? ', role = $3, team_role_id = $4, permissions = $5' : ''} WHERE id = $1`,
        manageRole ? [u.id, id.email, role.role, role.roleId, permissions] : [u.id, id.email],
      );
      if (u.identity_id) {
        await q.query('UPDATE sso_identity SET name = $2, email = $3, last_login_at = $4 WHERE id = $1', [u.identity_id, id.name, id.email, now]);
      } else {
        await q.query('INSERT INTO sso_identity (mer_id, provider_id, subject, user_id, name, email, created_at, last_login_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$7)', [
          group,
          p.id,
          id.subject,
          u.id,
          id.name,
          id.email,
          now,
        ]);
      }
      if (changed || u.email !== id.email || !u.identity_id) {
        await audit(q, {
          action: SsoAudit.userUpdated,
          userId: u.id,
          username: u.username,
          merId: group,
          target: u.username,
          detail: {
            provider: p.id,
            linked: !u.identity_id,
            before: { email: u.email, role: u.role, roleId: u.team_role_id },
            after: { email: id.email, role: manageRole ? role.role : u.role, roleId: manageRole ? role.roleId : u.team_role_id },
          },
          ...meta,
        });
      }
      return u.id;
    });
  } catch (err) {
    // A parallel first sign-in of the same person won the unique index: read its link once more.
    if (attempt === 0 && /duplicate key|unique/i.test(String((err as Error).message))) return provisionUser(deps, p, id, meta, 1);
    if (/duplicate key|unique/i.test(String((err as Error).message))) throw refuse('email-taken');
    throw err;
  }
  if (typeof out !== 'number') throw refuse(out.refused);
  return out;
}

/** Trades the one-time ticket of an SSO sign-in for a portal session (the ticket used up in its transaction). */
export async function ssoLogin(deps: Deps, ticket: string, meta: Meta): Promise<TokenPair> {
  const now = deps.clock.now();
  // The checks other modules add to every sign-in (the merchant's IP allow-list, issue 51) hold for
  // an SSO sign-in too: run before the ticket is used (a refusal is audited by the check).
  const peeked = await peekOAuthState(deps.db, ticket, SSO_TICKET, now);
  if (peeked) {
    const { rows } = await deps.db.query<{ id: number; username: string; mer_id: string }>('SELECT id, username, mer_id FROM app_user WHERE id = $1', [Number(peeked.userId)]);
    if (rows[0]) await runSignInChecks(deps, rows[0], meta, 'sso');
  }
  const pair = await deps.db.tx(async (q) => {
    const data = await consumeOAuthState(q, ticket, SSO_TICKET, now);
    if (!data) return null;
    const { rows } = await q.query<{ id: number; username: string; mer_id: string; status: string; removed_at: Date | null }>(
      'SELECT id, username, mer_id, status, removed_at FROM app_user WHERE id = $1',
      [Number(data.userId)],
    );
    const u = rows[0];
    if (!u || u.status !== 'ACTIVE' || u.removed_at) return null;
    await q.query('UPDATE app_user SET failed_logins = 0, locked_until = NULL WHERE id = $1', [u.id]);
    const issued = await startSession(q, now, u.id, meta, deps.config.accessTokenSeconds);
    await audit(q, { action: AuditAction.loginSuccess, userId: u.id, username: u.username, merId: u.mer_id, detail: { factor: 'sso', via: 'sso', provider: Number(data.providerId) }, ...meta });
    return issued;
  });
  if (!pair) throw new AppError(Code.SSO_FAILED, 'ssoFailed');
  return pair;
}
