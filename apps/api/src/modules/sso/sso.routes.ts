import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Perm,
  ssoConfigSchema,
  ssoDiscoverSchema,
  ssoDomainRowSchema,
  ssoDomainSchema,
  ssoIdSchema,
  ssoMappingSaveSchema,
  ssoMappingSchema,
  ssoProviderSaveSchema,
  ssoPolicySchema,
  ssoProviderSchema,
  ssoTicketSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { claimDomain, getConfig, removeDomain, removeMapping, removeProvider, saveMapping, savePolicy, verifyDomain } from './sso.service';
import { discoverEmail, saveOidcProvider, oidcCallback, ssoBrowserCookie, ssoBrowserOf, ssoLogin } from './sso.login';
import { samlAcs, saveSamlProvider, spMetadata } from './sso.saml';
import { startSso, startStepUp, stepUpOptions } from './sso.start';
import { t } from '../../lib/messages';
import { pickLanguage } from '@portal/contract';

const TAG = ['sso'];
const config = { permission: Perm.teamSsoManage };
const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'], lang: req.lang });
const publicLimit = { auth: 'public' as const, rateLimit: { max: 30, timeWindow: '1 minute' } };
const tokenPair = z.object({ token: z.string(), refreshToken: z.string(), expiresIn: z.number() });

/**
 * Enterprise sign-in (issue 51, docs/sso.md). Team → Sign-in: holders of team:sso:manage set up
 * their group's identity provider, the mapping of its groups to roles, the verified e-mail
 * domains and "SSO required". The sign-in page's public steps: is SSO set up for this e-mail,
 * start it, the provider's redirect back, and the one-time ticket traded for a session.
 */
export function ssoRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const secure = () => deps.config.publicUrl.startsWith('https:');

  // ---- the sign-in page (public) ----
  r.post('/api/sso/discover', {
    config: publicLimit,
    schema: {
      tags: TAG,
      summary: 'Sign-in, e-mail first: whether the e-mail\'s domain is verified by a merchant whose identity provider is enabled ("Sign in with SSO")',
      body: ssoDiscoverSchema,
      response: { 200: envelope(z.object({ sso: z.boolean() })) },
    },
    handler: async (req) => ok(await discoverEmail(deps, req.body.email)),
  });
  r.post('/api/sso/start', {
    config: publicLimit,
    schema: {
      tags: TAG,
      summary:
        "Start an SSO sign-in for the e-mail: the provider's authorization URL (code flow, PKCE S256, state and nonce); sets the HttpOnly cookie binding the state to this browser. No provider for the domain: code 404",
      body: ssoDiscoverSchema,
      response: { 200: envelope(z.object({ url: z.string() })) },
    },
    handler: async (req, reply) => {
      const { url, browser, kind } = await startSso(deps, req.body.email, meta(req));
      reply.header('set-cookie', ssoBrowserCookie(browser, secure(), 600, kind === 'saml'));
      return ok({ url });
    },
  });
  r.get('/api/sso/oidc/callback', {
    config: publicLimit,
    schema: {
      tags: TAG,
      summary: "The OIDC provider's redirect (code, state): answers a redirect to the sign-in page with a one-time ticket, or ?sso=failed",
      querystring: z.object({
        code: z.string().max(2000).optional(),
        state: z.string().max(200).optional(),
        error: z.string().max(200).optional(),
        error_description: z.string().max(1000).optional(),
        iss: z.string().max(500).optional(),
        session_state: z.string().max(500).optional(),
      }),
    },
    handler: async (req, reply) => {
      const raw = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      const to = await oidcCallback(deps, raw, ssoBrowserOf(req.headers.cookie), meta(req));
      reply.header('set-cookie', ssoBrowserCookie('', secure(), 0));
      return reply.redirect(to, 302);
    },
  });
  r.post('/api/sso/saml/acs', {
    config: publicLimit,
    schema: {
      tags: TAG,
      summary:
        "The SAML IdP's HTTP-POST response (SAMLResponse, RelayState; a form): signature, audience, recipient, validity, InResponseTo and replay checked; answers a redirect to the sign-in page with a one-time ticket, or ?sso=failed",
      body: z.object({ SAMLResponse: z.string().min(1).max(400_000), RelayState: z.string().max(200) }),
    },
    bodyLimit: 600_000,
    handler: async (req, reply) => {
      const to = await samlAcs(deps, req.body, ssoBrowserOf(req.headers.cookie), meta(req));
      reply.header('set-cookie', ssoBrowserCookie('', secure(), 0));
      return reply.redirect(to, 302);
    },
  });
  r.get('/api/sso/saml/:merId/metadata', {
    config: publicLimit,
    schema: {
      tags: TAG,
      summary: "The portal's SAML service-provider metadata for a merchant group with a SAML provider (entity id, ACS URL), to upload at the IdP; none: 404",
      params: z.object({ merId: z.string().regex(/^[0-9]{15}$/) }),
    },
    handler: async (req, reply) => {
      const xml = await spMetadata(deps, req.params.merId);
      if (!xml) return reply.code(404).send({ code: 404, msg: 'not found', data: null });
      return reply.type('application/samlmetadata+xml; charset=utf-8').header('content-disposition', 'attachment; filename="portal-sp-metadata.xml"').send(xml);
    },
  });
  r.post('/api/sso/login', {
    config: publicLimit,
    schema: {
      tags: TAG,
      summary: "Trade the one-time ticket of an SSO sign-in for tokens (a normal portal session; the provider's own second-factor rules applied there)",
      body: ssoTicketSchema,
      response: { 200: envelope(tokenPair) },
    },
    handler: async (req) => ok(await ssoLogin(deps, req.body.ticket, meta(req))),
  });

  // ---- the step-up of a signed-in SSO user (refund password and other confirmations) ----
  r.get('/api/sso/step-up', {
    schema: {
      tags: TAG,
      summary:
        "How the signed-in user confirms a step-up (refunds): sso — at its identity provider; password — with its password (it has one, and its merchant does not require SSO of it); active — the session's 5-minute step-up holds now",
      response: { 200: envelope(z.object({ sso: z.boolean(), password: z.boolean(), active: z.boolean() })) },
    },
    handler: async (req) => ok(await stepUpOptions(deps, userOf(req))),
  });
  r.post('/api/sso/step-up/start', {
    config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    schema: {
      tags: TAG,
      summary:
        "Confirm a step-up at the identity provider: the URL to open (OIDC prompt=login, max_age=0; SAML ForceAuthn), the state bound to this browser by an HttpOnly cookie. The provider's fresh answer for the same subject grants this session the 5-minute step-up (audited). Not linked to a provider: code 400",
      response: { 200: envelope(z.object({ url: z.string() })) },
    },
    handler: async (req, reply) => {
      const { url, browser, kind } = await startStepUp(deps, userOf(req), meta(req));
      reply.header('set-cookie', ssoBrowserCookie(browser, secure(), 600, kind === 'saml'));
      return ok({ url });
    },
  });
  r.get('/api/sso/step-up/done', {
    config: { auth: 'public' as const },
    schema: {
      tags: TAG,
      summary: "Where the identity provider's window lands after a step-up: a page saying whether it was confirmed (in Accept-Language), to close",
      querystring: z.object({ ok: z.enum(['0', '1']).optional() }),
    },
    handler: async (req, reply) => {
      const lang = pickLanguage(req.headers['accept-language']);
      const text = t(lang, req.query.ok === '1' ? 'stepUpDoneOk' : 'stepUpDoneFailed');
      const esc = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5"><main><p role="status">${esc}</p></main></body></html>`,
        );
    },
  });

  // ---- Team → Sign-in (team:sso:manage) ----
  r.get('/api/sso/config', {
    config,
    schema: { tags: TAG, summary: "The caller's group's identity provider (no secret), role mapping, domains, policy and break-glass administrators", response: { 200: envelope(ssoConfigSchema) } },
    handler: async (req) => ok(await getConfig(deps, userOf(req))),
  });
  r.post('/api/sso/provider', {
    config,
    schema: {
      tags: TAG,
      summary:
        'Add or replace the group\'s provider. OIDC (kind "oidc"): issuer, client id, client secret — sealed at rest, never returned; omitted on an edit: kept; the issuer\'s discovery document is fetched first (unreachable → code 400). SAML (kind "saml"): the IdP metadata XML or its URL (entity id, HTTP-Redirect sign-in URL and signing certificates read from it; unusable → code 400). Audited',
      body: ssoProviderSaveSchema,
      response: { 200: envelope(ssoProviderSchema) },
    },
    handler: async (req) => {
      const b = req.body;
      return ok(b.kind === 'saml' ? await saveSamlProvider(deps, userOf(req), b, meta(req)) : await saveOidcProvider(deps, userOf(req), b, meta(req)));
    },
  });
  r.post('/api/sso/provider/remove', {
    config,
    schema: { tags: TAG, summary: 'Remove the provider (refused while SSO is required). Audited', response: { 200: envelope(z.null()) } },
    handler: async (req) => {
      await removeProvider(deps, userOf(req), meta(req));
      return ok(null);
    },
  });
  r.post('/api/sso/mapping', {
    config,
    schema: {
      tags: TAG,
      summary: 'Map a provider group (claim value) to a role: a preset, or a named role (CUSTOM + roleId). Lowest priority first wins. Audited',
      body: ssoMappingSaveSchema,
      response: { 200: envelope(z.array(ssoMappingSchema)) },
    },
    handler: async (req) => ok(await saveMapping(deps, userOf(req), req.body, meta(req))),
  });
  r.post('/api/sso/mapping/remove', {
    config,
    schema: { tags: TAG, summary: 'Remove a mapping (id). Audited', body: ssoIdSchema, response: { 200: envelope(z.null()) } },
    handler: async (req) => {
      await removeMapping(deps, userOf(req), req.body.id, meta(req));
      return ok(null);
    },
  });
  r.post('/api/sso/domain', {
    config,
    schema: { tags: TAG, summary: 'Claim an e-mail domain: the TXT record to publish (name and value). Audited', body: ssoDomainSchema, response: { 200: envelope(ssoDomainRowSchema) } },
    handler: async (req) => ok(await claimDomain(deps, userOf(req), req.body.domain, meta(req))),
  });
  r.post('/api/sso/domain/verify', {
    config,
    schema: {
      tags: TAG,
      summary: "Look the domain's TXT record up (SSO_DNS_SERVERS, else the system's resolvers): verified when it holds the value; not found → code 400 with what to publish. Audited",
      body: ssoIdSchema,
      response: { 200: envelope(ssoDomainRowSchema) },
    },
    handler: async (req) => ok(await verifyDomain(deps, userOf(req), req.body.id, meta(req))),
  });
  r.post('/api/sso/domain/remove', {
    config,
    schema: { tags: TAG, summary: 'Remove a domain (id). Audited', body: ssoIdSchema, response: { 200: envelope(z.null()) } },
    handler: async (req) => {
      await removeDomain(deps, userOf(req), req.body.id, meta(req));
      return ok(null);
    },
  });
  r.post('/api/sso/policy', {
    config,
    schema: {
      tags: TAG,
      summary:
        '"SSO required" and the break-glass administrators (who keep password + second factor). Requiring SSO needs an enabled provider, a verified domain and one break-glass administrator at least. Audited',
      body: ssoPolicySchema,
      response: { 200: envelope(z.object({ ssoRequired: z.boolean(), breakGlass: z.array(z.number()) })) },
    },
    handler: async (req) => ok(await savePolicy(deps, userOf(req), req.body, meta(req))),
  });
}
