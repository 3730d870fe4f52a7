import { DOMParser } from '@xmldom/xmldom';
import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import { Code, type SsoRole } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { audit, AuditAction } from '../../lib/audit';
import { newToken, safeEqual, sha256 } from '../../lib/crypto';
import { consumeOAuthState, createOAuthState } from '../account';
import type { Meta } from '../user';
import { finishSso, identityOf, provisionUser } from './sso.login';
import { finishStepUp, stepUpFailed, type StepUpState } from './sso.stepup';
import { providerById, providerOf, samlAcsOf, saveProvider, spEntityIdOf, type ProviderRow } from './sso.service';

/**
 * SAML 2.0 sign-in (issue 51, decision 064) through `@node-saml/node-saml`: HTTP-Redirect
 * AuthnRequest, HTTP-POST response at the portal's ACS. What is checked before anyone is signed
 * in: the assertion's XML signature by one of the IdP's certificates (signed assertions required;
 * node-saml reads only the signed part, so a wrapped, unsigned copy is never used), the audience
 * (the portal's entity id), the recipient (the ACS), NotBefore / NotOnOrAfter, InResponseTo (an
 * AuthnRequest this portal sent, used up once — in the database, so every process agrees) and
 * the assertion's ID not seen before (replay). The RelayState is a one-time state bound to the
 * browser, as the OIDC flow's.
 */

export const SSO_SAML = 'sso-saml';
const REQUEST_TTL_MS = 10 * 60_000;

/** node-saml's InResponseTo cache, in the database (one request, one response, any process). */
function requestCache(deps: Deps): CacheProvider {
  return {
    async saveAsync(key, value) {
      const now = deps.clock.now();
      await deps.db.query('DELETE FROM sso_saml_request WHERE created_at < $1', [new Date(now.getTime() - REQUEST_TTL_MS)]);
      await deps.db.query('INSERT INTO sso_saml_request (request_id, value, created_at) VALUES ($1,$2,$3) ON CONFLICT DO NOTHING', [key, value, now]);
      return { value, createdAt: now.getTime() };
    },
    async getAsync(key) {
      const { rows } = await deps.db.query<{ value: string }>('SELECT value FROM sso_saml_request WHERE request_id = $1 AND created_at >= $2', [
        key,
        new Date(deps.clock.now().getTime() - REQUEST_TTL_MS),
      ]);
      return rows[0]?.value ?? null;
    },
    async removeAsync(key) {
      if (key === null) return null;
      const { rows } = await deps.db.query<{ value: string }>('DELETE FROM sso_saml_request WHERE request_id = $1 RETURNING value', [key]);
      return rows[0]?.value ?? null;
    },
  };
}

const pem = (c: string) => (c.includes('BEGIN') ? c : `-----BEGIN CERTIFICATE-----\n${c.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----`);

export function samlOf(deps: Deps, p: ProviderRow, forceAuthn = false): SAML {
  return new SAML({
    // A step-up (issue 51): the IdP authenticates the user afresh.
    forceAuthn,
    callbackUrl: samlAcsOf(deps),
    entryPoint: p.idp_sso_url!,
    issuer: spEntityIdOf(deps, p.mer_id),
    audience: spEntityIdOf(deps, p.mer_id),
    idpIssuer: p.idp_entity_id!,
    idpCert: p.idp_certs.map(pem),
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestCache(deps),
    acceptedClockSkewMs: 60_000,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
  });
}

/** The IdP's sign-in URL (HTTP-Redirect binding) and the browser's half of the RelayState. */
export async function samlStart(deps: Deps, p: ProviderRow, stepUp?: Record<string, unknown>): Promise<{ url: string; browser: string }> {
  const browser = newToken();
  const relay = await createOAuthState(deps.db, deps.clock.now(), SSO_SAML, { providerId: p.id, browser: sha256(browser), ...(stepUp ? { stepUp } : {}) });
  const url = await samlOf(deps, p, !!stepUp).getAuthorizeUrlAsync(relay, undefined, {});
  return { url, browser };
}

/** The assertion's ID, from the XML node-saml validated. */
const assertionId = (xml: string) => /<(?:[\w-]+:)?Assertion\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1] ?? null;

/** The IdP posted its response to the ACS. Returns where the browser goes next (a ticket, or `sso=failed`). */
export async function samlAcs(deps: Deps, body: { SAMLResponse: string; RelayState: string }, browser: string | undefined, meta: Meta): Promise<string> {
  const now = deps.clock.now();
  const fail = async (reason: string, merId?: string, extra: Record<string, unknown> = {}) => {
    await audit(deps.db, { action: AuditAction.loginFailure, outcome: 'failure', merId, detail: { via: 'sso', kind: 'saml', reason, ...extra }, ...meta });
    return '/login?sso=failed';
  };
  const data = await consumeOAuthState(deps.db, body.RelayState, SSO_SAML, now);
  if (!data) return fail('state');
  if (!browser || !safeEqual(String(data.browser ?? ''), sha256(browser))) return fail('other-browser');
  const p = await providerById(deps.db, Number(data.providerId));
  if (!p || !p.enabled || p.kind !== 'saml') return fail('provider');
  let profile;
  try {
    profile = (await samlOf(deps, p).validatePostResponseAsync({ SAMLResponse: body.SAMLResponse })).profile;
    if (!profile) throw new Error('no profile');
  } catch (err) {
    if (data.stepUp) return stepUpFailed(deps, data.stepUp as StepUpState, p, 'assertion', meta);
    return fail('assertion', p.mer_id, { error: String((err as Error).message).slice(0, 200) });
  }
  const signedXml = profile.getAssertionXml?.() ?? '';
  const id = assertionId(signedXml);
  if (!id) return fail('assertion-id', p.mer_id);
  // The recipient: every bearer confirmation of the signed assertion names this portal's ACS (node-saml leaves it to us).
  const recipients = [...signedXml.matchAll(/<(?:[\w-]+:)?SubjectConfirmationData\b[^>]*\sRecipient="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
  if (!recipients.length || recipients.some((r) => r !== samlAcsOf(deps))) return fail('assertion', p.mer_id, { error: 'recipient' });
  // Replay: an assertion is used once (kept until its NotOnOrAfter, at most a day).
  const seen = await deps.db.query('INSERT INTO sso_saml_seen (provider_id, assertion_id, expires_at) VALUES ($1,$2,$3) ON CONFLICT DO NOTHING RETURNING assertion_id', [
    p.id,
    id,
    new Date(now.getTime() + 24 * 3_600_000),
  ]);
  if (!seen.rows[0]) return fail('replay', p.mer_id);
  await deps.db.query('DELETE FROM sso_saml_seen WHERE expires_at < $1', [now]);
  let identity;
  try {
    const email = profile.email ?? profile.mail ?? profile['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'] ?? (/@/.test(profile.nameID) ? profile.nameID : undefined);
    const name = profile['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name'] ?? profile.displayName ?? profile.name ?? null;
    identity = identityOf({ ...profile, sub: profile.nameID, email, name }, p.groups_claim);
  } catch (err) {
    if (data.stepUp) return stepUpFailed(deps, data.stepUp as StepUpState, p, 'identity', meta);
    return fail('identity', p.mer_id, { error: String((err as Error).message).slice(0, 200) });
  }
  if (data.stepUp) {
    // The signed assertion's AuthnInstant: when the IdP last authenticated the user.
    const instant = /<(?:[\w-]+:)?AuthnStatement\b[^>]*\sAuthnInstant="([^"]+)"/.exec(signedXml)?.[1];
    const at = instant ? Date.parse(instant) : NaN;
    return finishStepUp(deps, p, data.stepUp as StepUpState, identity, Number.isFinite(at) ? at : undefined, meta, (id) => provisionUser(deps, p, id, meta));
  }
  return finishSso(deps, p, identity, meta);
}

/** The IdP's entity id, sign-in URL (HTTP-Redirect) and signing certificates, from its metadata XML. */
export function parseIdpMetadata(xml: string): { entityId: string; ssoUrl: string; certs: string[] } {
  const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
  const DS = 'http://www.w3.org/2000/09/xmldsig#';
  let doc;
  try {
    doc = new DOMParser({
      errorHandler: {
        error: (e: string) => {
          throw new Error(e);
        },
        fatalError: (e: string) => {
          throw new Error(e);
        },
      },
    }).parseFromString(xml, 'text/xml');
  } catch (err) {
    throw new AppError(Code.BAD_REQUEST, 'ssoSamlMetadataBad', { detail: String((err as Error).message).slice(0, 100) }, 400);
  }
  const bad = (detail: string) => new AppError(Code.BAD_REQUEST, 'ssoSamlMetadataBad', { detail }, 400);
  const entity = doc.getElementsByTagNameNS(MD, 'EntityDescriptor')[0];
  const idp = doc.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  if (!entity || !idp) throw bad('no IDPSSODescriptor');
  const entityId = entity.getAttribute('entityID') ?? '';
  const services = Array.from(idp.getElementsByTagNameNS(MD, 'SingleSignOnService'));
  const redirect = services.find((s) => s.getAttribute('Binding') === 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect');
  const ssoUrl = redirect?.getAttribute('Location') ?? '';
  const certs = Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))
    .filter((k) => !k.getAttribute('use') || k.getAttribute('use') === 'signing')
    .flatMap((k) => Array.from(k.getElementsByTagNameNS(DS, 'X509Certificate')).map((c) => (c.textContent ?? '').replace(/\s+/g, '')))
    .filter(Boolean);
  if (!entityId) throw bad('no entityID');
  if (!/^https?:\/\//.test(ssoUrl)) throw bad('no HTTP-Redirect SingleSignOnService');
  if (!certs.length) throw bad('no signing certificate');
  return { entityId, ssoUrl, certs: [...new Set(certs)] };
}

export interface SamlSaveInput {
  name: string;
  metadataXml?: string;
  metadataUrl?: string;
  groupsClaim: string;
  enabled: boolean;
  defaultRole: SsoRole | null;
  defaultRoleId?: number | null;
}

/** Adds or replaces the group's SAML provider from its metadata (XML given, or fetched from its URL — no transaction open meanwhile). */
export async function saveSamlProvider(deps: Deps, caller: SessionUser, b: SamlSaveInput, meta: Meta) {
  let xml = b.metadataXml;
  if (!xml && b.metadataUrl) {
    if (deps.config.env === 'production' && !b.metadataUrl.startsWith('https:')) throw new AppError(Code.BAD_REQUEST, 'ssoSamlMetadataBad', { detail: 'https only' }, 400);
    try {
      const res = await fetch(b.metadataUrl, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      xml = (await res.text()).slice(0, 500_000);
    } catch (err) {
      throw new AppError(Code.BAD_REQUEST, 'ssoSamlMetadataBad', { detail: String((err as Error).message).slice(0, 100) }, 400);
    }
  }
  const md = parseIdpMetadata(xml ?? '');
  return saveProvider(
    deps,
    caller,
    {
      kind: 'saml',
      name: b.name,
      idpEntityId: md.entityId,
      idpSsoUrl: md.ssoUrl,
      idpCerts: md.certs,
      metadataUrl: b.metadataUrl ?? null,
      groupsClaim: b.groupsClaim,
      enabled: b.enabled,
      defaultRole: b.defaultRole,
      defaultRoleId: b.defaultRoleId,
    },
    meta,
  );
}

/** The portal's SP metadata for a merchant group with a SAML provider (entity id, ACS); null without one. */
export async function spMetadata(deps: Deps, merId: string): Promise<string | null> {
  const p = await providerOf(deps.db, merId);
  if (!p || p.kind !== 'saml') return null;
  return samlOf(deps, p).generateServiceProviderMetadata(null, null);
}
