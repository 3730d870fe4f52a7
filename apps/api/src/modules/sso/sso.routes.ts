import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SsoApi,
  ssoConfigSchema,
  ssoDiscoverSchema,
  ssoDomainRowSchema,
  ssoDomainSchema,
  ssoIdSchema,
  ssoMappingSaveSchema,
  ssoMappingSchema,
  ssoPolicySchema,
  ssoProviderSaveSchema,
  ssoProviderSchema,
  ssoTicketSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { claimDomain, getConfig, removeDomain, removeMapping, removeProvider, saveMapping, savePolicy, verifyDomain } from './sso.service';
import { discoverEmail, saveOidcProvider, oidcCallback, ssoBrowserCookie, ssoBrowserOf, ssoLogin } from './sso.login';
import { samlAcs, saveSamlProvider, spMetadata } from './sso.saml';
import { startSso, startStepUp, stepUpOptions } from './sso.start';
import { t } from '../../lib/messages';
import { pickLanguage } from '@portal/contract';

const TAG = ['sso'];
const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'], lang: req.lang });
/** The public sign-in steps' rate limit (their access, public, comes from the descriptor). */
const limit = { rateLimit: { max: 30, timeWindow: '1 minute' } };
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
  r.route({
    ...routeOf(SsoApi.discover, limit),
    schema: {
      tags: TAG,
      summary: 'Sign-in, e-mail first: whether the e-mail\'s domain is verified by a merchant whose identity provider is enabled ("Sign in with SSO")',
      body: inputOf(SsoApi.discover)(ssoDiscoverSchema),
      response: { 200: envelope(answerOf(SsoApi.discover)(z.object({ sso: z.boolean() }))) },
    },
    handler: async (req) => ok(await discoverEmail(deps, req.body.email)),
  });
  r.route({
    ...routeOf(SsoApi.start, limit),
    schema: {
      tags: TAG,
      summary:
        "Start an SSO sign-in for the e-mail: the provider's authorization URL (code flow, PKCE S256, state and nonce); sets the HttpOnly cookie binding the state to this browser. No provider for the domain: code 404",
      body: inputOf(SsoApi.start)(ssoDiscoverSchema),
      response: { 200: envelope(answerOf(SsoApi.start)(z.object({ url: z.string() }))) },
    },
    handler: async (req, reply) => {
      const { url, browser, kind } = await startSso(deps, req.body.email, meta(req));
      reply.header('set-cookie', ssoBrowserCookie(browser, secure(), 600, kind === 'saml'));
      return ok({ url });
    },
  });
  r.route({
    ...routeOf(SsoApi.oidcCallback, limit),
    schema: {
      tags: TAG,
      summary: "The OIDC provider's redirect (code, state): answers a redirect to the sign-in page with a one-time ticket, or ?sso=failed",
      querystring: inputOf(SsoApi.oidcCallback)(
        z.object({
          code: z.string().max(2000).optional(),
          state: z.string().max(200).optional(),
          error: z.string().max(200).optional(),
          error_description: z.string().max(1000).optional(),
          iss: z.string().max(500).optional(),
          session_state: z.string().max(500).optional(),
        }),
      ),
    },
    handler: async (req, reply) => {
      const raw = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      const to = await oidcCallback(deps, raw, ssoBrowserOf(req.headers.cookie), meta(req));
      reply.header('set-cookie', ssoBrowserCookie('', secure(), 0));
      return reply.redirect(to, 302);
    },
  });
  r.route({
    ...routeOf(SsoApi.samlAcs, limit),
    schema: {
      tags: TAG,
      summary:
        "The SAML IdP's HTTP-POST response (SAMLResponse, RelayState; a form): signature, audience, recipient, validity, InResponseTo and replay checked; answers a redirect to the sign-in page with a one-time ticket, or ?sso=failed",
      body: inputOf(SsoApi.samlAcs)(z.object({ SAMLResponse: z.string().min(1).max(400_000), RelayState: z.string().max(200) })),
    },
    bodyLimit: 600_000,
    handler: async (req, reply) => {
      const to = await samlAcs(deps, req.body, ssoBrowserOf(req.headers.cookie), meta(req));
      reply.header('set-cookie', ssoBrowserCookie('', secure(), 0));
      return reply.redirect(to, 302);
    },
  });
  r.route({
    ...routeOf(SsoApi.samlMetadata, limit),
    schema: {
      tags: TAG,
      summary: "The portal's SAML service-provider metadata for a merchant group with a SAML provider (entity id, ACS URL), to upload at the IdP; none: 404",
      params: inputOf(SsoApi.samlMetadata)(z.object({ merId: z.string().regex(/^[0-9]{15}$/) })),
    },
    handler: async (req, reply) => {
      const xml = await spMetadata(deps, req.params.merId);
      if (!xml) return reply.code(404).send({ code: 404, msg: 'not found', data: null });
      return reply.type('application/samlmetadata+xml; charset=utf-8').header('content-disposition', 'attachment; filename="portal-sp-metadata.xml"').send(xml);
    },
  });
  r.route({
    ...routeOf(SsoApi.login, limit),
    schema: {
      tags: TAG,
      summary: "Trade the one-time ticket of an SSO sign-in for tokens (a normal portal session; the provider's own second-factor rules applied there)",
      body: inputOf(SsoApi.login)(ssoTicketSchema),
      response: { 200: envelope(answerOf(SsoApi.login)(tokenPair)) },
    },
    handler: async (req) => ok(await ssoLogin(deps, req.body.ticket, meta(req))),
  });

  // ---- the step-up of a signed-in SSO user (refund password and other confirmations) ----
  r.route({
    ...routeOf(SsoApi.stepUp),
    schema: {
      tags: TAG,
      summary:
        "How the signed-in user confirms a step-up (refunds): sso — at its identity provider; password — with its password (it has one, and its merchant does not require SSO of it); active — the session's 5-minute step-up holds now",
      response: { 200: envelope(answerOf(SsoApi.stepUp)(z.object({ sso: z.boolean(), password: z.boolean(), active: z.boolean() }))) },
    },
    handler: async (req) => ok(await stepUpOptions(deps, userOf(req))),
  });
  r.route({
    ...routeOf(SsoApi.stepUpStart, { rateLimit: { max: 30, timeWindow: '1 minute' } }),
    schema: {
      tags: TAG,
      summary:
        "Confirm a step-up at the identity provider: the URL to open (OIDC prompt=login, max_age=0; SAML ForceAuthn), the state bound to this browser by an HttpOnly cookie. The provider's fresh answer for the same subject grants this session the 5-minute step-up (audited). Not linked to a provider: code 400",
      response: { 200: envelope(answerOf(SsoApi.stepUpStart)(z.object({ url: z.string() }))) },
    },
    handler: async (req, reply) => {
      const { url, browser, kind } = await startStepUp(deps, userOf(req), meta(req));
      reply.header('set-cookie', ssoBrowserCookie(browser, secure(), 600, kind === 'saml'));
      return ok({ url });
    },
  });
  r.route({
    ...routeOf(SsoApi.stepUpDone),
    schema: {
      tags: TAG,
      summary: "Where the identity provider's window lands after a step-up: a page saying whether it was confirmed (in Accept-Language), to close",
      querystring: inputOf(SsoApi.stepUpDone)(z.object({ ok: z.enum(['0', '1']).optional() })),
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
  r.route({
    ...routeOf(SsoApi.config),
    schema: {
      tags: TAG,
      summary: "The caller's group's identity provider (no secret), role mapping, domains, policy and break-glass administrators",
      response: { 200: envelope(answerOf(SsoApi.config)(ssoConfigSchema)) },
    },
    handler: async (req) => ok(await getConfig(deps, userOf(req))),
  });
  r.route({
    ...routeOf(SsoApi.saveProvider),
    schema: {
      tags: TAG,
      summary:
        'Add or replace the group\'s provider. OIDC (kind "oidc"): issuer, client id, client secret — sealed at rest, never returned; omitted on an edit: kept; the issuer\'s discovery document is fetched first (unreachable → code 400). SAML (kind "saml"): the IdP metadata XML or its URL (entity id, HTTP-Redirect sign-in URL and signing certificates read from it; unusable → code 400). Audited',
      body: inputOf(SsoApi.saveProvider)(ssoProviderSaveSchema),
      response: { 200: envelope(answerOf(SsoApi.saveProvider)(ssoProviderSchema)) },
    },
    handler: async (req) => {
      const b = req.body;
      return ok(b.kind === 'saml' ? await saveSamlProvider(deps, userOf(req), b, meta(req)) : await saveOidcProvider(deps, userOf(req), b, meta(req)));
    },
  });
  r.route({
    ...routeOf(SsoApi.removeProvider),
    schema: { tags: TAG, summary: 'Remove the provider (refused while SSO is required). Audited', response: { 200: envelope(answerOf(SsoApi.removeProvider)(z.null())) } },
    handler: async (req) => {
      await removeProvider(deps, userOf(req), meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(SsoApi.saveMapping),
    schema: {
      tags: TAG,
      summary: 'Map a provider group (claim value) to a role: a preset, or a named role (CUSTOM + roleId). Lowest priority first wins. Audited',
      body: inputOf(SsoApi.saveMapping)(ssoMappingSaveSchema),
      response: { 200: envelope(answerOf(SsoApi.saveMapping)(z.array(ssoMappingSchema))) },
    },
    handler: async (req) => ok(await saveMapping(deps, userOf(req), req.body, meta(req))),
  });
  r.route({
    ...routeOf(SsoApi.removeMapping),
    schema: { tags: TAG, summary: 'Remove a mapping (id). Audited', body: inputOf(SsoApi.removeMapping)(ssoIdSchema), response: { 200: envelope(answerOf(SsoApi.removeMapping)(z.null())) } },
    handler: async (req) => {
      await removeMapping(deps, userOf(req), req.body.id, meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(SsoApi.claimDomain),
    schema: {
      tags: TAG,
      summary: 'Claim an e-mail domain: the TXT record to publish (name and value). Audited',
      body: inputOf(SsoApi.claimDomain)(ssoDomainSchema),
      response: { 200: envelope(answerOf(SsoApi.claimDomain)(ssoDomainRowSchema)) },
    },
    handler: async (req) => ok(await claimDomain(deps, userOf(req), req.body.domain, meta(req))),
  });
  r.route({
    ...routeOf(SsoApi.verifyDomain),
    schema: {
      tags: TAG,
      summary: "Look the domain's TXT record up (SSO_DNS_SERVERS, else the system's resolvers): verified when it holds the value; not found → code 400 with what to publish. Audited",
      body: inputOf(SsoApi.verifyDomain)(ssoIdSchema),
      response: { 200: envelope(answerOf(SsoApi.verifyDomain)(ssoDomainRowSchema)) },
    },
    handler: async (req) => ok(await verifyDomain(deps, userOf(req), req.body.id, meta(req))),
  });
  r.route({
    ...routeOf(SsoApi.removeDomain),
    schema: { tags: TAG, summary: 'Remove a domain (id). Audited', body: inputOf(SsoApi.removeDomain)(ssoIdSchema), response: { 200: envelope(answerOf(SsoApi.removeDomain)(z.null())) } },
    handler: async (req) => {
      await removeDomain(deps, userOf(req), req.body.id, meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(SsoApi.savePolicy),
    schema: {
      tags: TAG,
      summary:
        '"SSO required" and the break-glass administrators (who keep password + second factor). Requiring SSO needs an enabled provider, a verified domain and one break-glass administrator at least. Audited',
      body: inputOf(SsoApi.savePolicy)(ssoPolicySchema),
      response: { 200: envelope(answerOf(SsoApi.savePolicy)(z.object({ ssoRequired: z.boolean(), breakGlass: z.array(z.number()) }))) },
    },
    handler: async (req) => ok(await savePolicy(deps, userOf(req), req.body, meta(req))),
  });
}
