import * as oidc from 'openid-client';
import { Code } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { audit, AuditAction } from '../../lib/audit';
import { newToken, safeEqual, sha256 } from '../../lib/crypto';
import { consumeOAuthState, createOAuthState, peekOAuthState } from '../account';
import { runSignInChecks, startSession, type Meta, type TokenPair } from '../user';
import { finishStepUp, stepUpFailed, type StepUpState } from './sso.stepup';
import { clientSecretOf, providerById, providerCache, providerForEmail, redirectUriOf, saveProvider, SsoAudit, type OidcSave, type ProviderRow } from './sso.service';
import { identityOf, provisionUser, type SsoIdentity } from './sso.provision';

export { identityOf, mappedRole, provisionUser, type SsoIdentity } from './sso.provision';

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
