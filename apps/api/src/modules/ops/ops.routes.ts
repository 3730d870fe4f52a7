import type { RouteSetup } from '../contract';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OPS_ROLES, opsActivateSchema, opsInviteSchema, opsLinkToken, opsLoginSchema, opsRefreshSchema, opsRoleSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { ok, envelope } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { OpsApi } from '@portal/contract';
import { login } from '../user';
import { logout, refresh } from '../user';
import { OPERATOR_REALM } from '../user';
import { operatorOf, registerOpsAuth } from './ops.auth';
import { localOnly } from '../dev';
import { portalDocTransform } from '../../lib/openapi';
import { createOperator } from './operators.service';
import { opsEmail, opsUsername } from '@portal/contract';
import { viewAsRoutes } from './view-as.routes';
import { endExpiredViewAs } from './view-as.service';
import { runsRoutes } from './runs.routes';
import { ratesRoutes } from './rates.routes';
import { opsNoticeRoutes } from './notices.routes';
import { merchantsRoutes } from './merchants.routes';
import { approvalsRoutes } from './approvals.routes';
import { activateOperator, activationInfo, inviteOperator, listOperators, listSessions, resendActivation, revokeSession, setEnabled, setRole } from './operators.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
const tokenPair = z.object({ token: z.string(), refreshToken: z.string(), expiresIn: z.number() });
const authLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };
const idParam = z.object({ id: z.coerce.number().int().positive().max(2147483647) });
/** Hidden from the merchant document (/api/docs); shown, under its own tag, in /api/ops/docs. */
const tag = (name: string) => ['X-HIDDEN', name];

const operatorRow = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  role: z.enum(OPS_ROLES),
  status: z.enum(['ACTIVE', 'INACTIVE', 'DISABLED']),
  createdAt: z.string(),
  locked: z.boolean(),
});

const DESCRIPTION = `The provider's back office (docs/backoffice.md). Operators sign in here (password + authenticator code), in a realm of their own: an operator's X-Token is refused by the merchant API (/api/…) and a merchant user's by this one. Roles: ${OPS_ROLES.join(', ')}; each route names the roles that may call it (the administrator may call every route). Envelope {code,msg,data} as the merchant API; Accept-Language zh, en, ko, ja.`;

const opsRolesOf = (route: RouteOptions | undefined) => (route?.config as { opsRoles?: readonly string[] | 'public' } | undefined)?.opsRoles;

/**
 * The ops API (/api/ops/, issue 26): its own authentication (ops.auth.ts) and its own OpenAPI
 * document at /api/ops/docs (a second @fastify/swagger in this encapsulated context, as the
 * provider face does).
 */
export function opsRoutes(app: FastifyInstance, deps: Deps, extra: readonly RouteSetup[] = []): void {
  registerOpsAuth(app, deps);
  void app.register(async (f) => {
    await f.register(swagger, {
      openapi: {
        info: { title: 'Merchant portal — back office (ops) API', version: '1.0.0', description: DESCRIPTION, license: { name: 'Proprietary', url: `${deps.config.publicUrl}/api/ops/docs` } },
        servers: [{ url: deps.config.publicUrl, description: 'This portal' }],
        components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } } },
        security: [{ token: [] }],
      },
      hiddenTag: 'X-OPS-HIDDEN',
      // Issue 46: operationIds, the error answers and OpenAPI 3.0 nullables as /api/docs (lib/openapi.ts).
      transform: portalDocTransform(
        (arg: Parameters<typeof jsonSchemaTransform>[0]) => {
          const out = jsonSchemaTransform(arg);
          const tags = ((out.schema as { tags?: string[] }).tags ?? []).filter((x) => x !== 'X-HIDDEN');
          const roles = opsRolesOf(arg.route);
          const who = roles === 'public' ? 'No token.' : `Roles: ${['administrator', ...(roles ?? []).filter((x) => x !== 'administrator')].join(', ')}.`;
          return { ...out, schema: { ...out.schema, tags, description: [who, (out.schema as { description?: string }).description].filter(Boolean).join(' ') } };
        },
        {
          unauthenticated: (route) => (opsRolesOf(route) === 'public' ? null : "No operator's token, or its session ended (codes -1, 3, 50012, 50014)"),
          // Routes every role may call refuse no signed-in operator.
          forbidden: (route) => {
            const roles = opsRolesOf(route);
            return roles === 'public' || OPS_ROLES.every((r) => r === 'administrator' || roles?.includes(r)) ? null : "The operator's role may not call it (code 403)";
          },
        },
      ),
    });
    if (deps.config.apiDocs !== 'off') await f.register(swaggerUi, { routePrefix: '/api/ops/docs', uiConfig: { docExpansion: 'list' }, staticCSP: true });
    routes(f, deps);
    viewAsRoutes(f, deps);
    runsRoutes(f, deps);
    // Exchange rates (issue 46).
    ratesRoutes(f, deps);
    // Other modules' back-office routes (their manifests' `ops`).
    for (const setup of extra) setup(f, deps);
  });
}

function routes(f: FastifyInstance, deps: Deps) {
  const r = f.withTypeProvider<ZodTypeProvider>();

  // ——— Sign-in: the merchant realm's code (login.service, session.service) on the operator tables.
  r.route({
    ...routeOf(OpsApi.login, authLimit),
    schema: {
      tags: tag('auth'),
      summary: 'Sign in: user name, password and the authenticator code (or a recovery code) — the second factor is mandatory',
      body: inputOf(OpsApi.login)(opsLoginSchema),
      response: { 200: envelope(answerOf(OpsApi.login)(tokenPair.or(z.object({ remaining: z.number() })).or(z.object({ username: z.string() })))) },
    },
    handler: async (req) => ok(await login(deps, req.body, meta(req), OPERATOR_REALM)),
  });
  r.route({
    ...routeOf(OpsApi.refreshToken, authLimit),
    schema: {
      tags: tag('auth'),
      summary: 'Rotate the token pair (reuse after the grace window revokes the session)',
      body: inputOf(OpsApi.refreshToken)(opsRefreshSchema),
      response: { 200: envelope(answerOf(OpsApi.refreshToken)(tokenPair)) },
    },
    handler: async (req) => ok(await refresh(deps, req.body.refreshToken, meta(req), OPERATOR_REALM)),
  });
  r.route({
    ...routeOf(OpsApi.logout),
    schema: { tags: tag('auth'), summary: 'End the session of X-Token (even an expired one)', response: { 200: envelope(answerOf(OpsApi.logout)(z.null())) } },
    handler: async (req) => {
      const token = req.headers['x-token'];
      if (typeof token === 'string' && token) await logout(deps, token, meta(req), OPERATOR_REALM);
      // A view-as bound to the session ends with it, audited now (decision 046).
      await endExpiredViewAs(deps);
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsApi.activation, authLimit),
    schema: {
      tags: tag('auth'),
      summary: 'Activation page: who is activating and the authenticator key to set up (the link token is the credential)',
      querystring: inputOf(OpsApi.activation)(z.object({ token: opsLinkToken })),
      response: { 200: envelope(answerOf(OpsApi.activation)(z.object({ username: z.string(), email: z.string(), role: z.enum(OPS_ROLES), totpSecret: z.string(), otpauthUri: z.string() }))) },
    },
    handler: async (req) => ok(await activationInfo(deps, req.query.token)),
  });
  r.route({
    ...routeOf(OpsApi.activate, authLimit),
    schema: {
      tags: tag('auth'),
      summary: 'Activate: first password and authenticator at once; answers the recovery codes (shown once)',
      body: inputOf(OpsApi.activate)(opsActivateSchema),
      response: { 200: envelope(answerOf(OpsApi.activate)(z.object({ username: z.string(), recoveryCodes: z.array(z.string()) }))) },
    },
    handler: async (req) => ok(await activateOperator(deps, req.body, meta(req))),
  });

  // ——— The signed-in operator.
  r.route({
    ...routeOf(OpsApi.me),
    schema: {
      tags: tag('auth'),
      summary: 'The signed-in operator and its role',
      response: { 200: envelope(answerOf(OpsApi.me)(z.object({ id: z.number(), username: z.string(), email: z.string(), role: z.enum(OPS_ROLES) }))) },
    },
    handler: async (req) => {
      const o = operatorOf(req);
      return ok({ id: o.id, username: o.username, email: o.email, role: o.role });
    },
  });
  r.route({
    ...routeOf(OpsApi.sessions),
    schema: {
      tags: tag('auth'),
      summary: "The operator's own open sessions",
      response: {
        200: envelope(
          answerOf(OpsApi.sessions)(
            z.array(z.object({ id: z.number(), createdAt: z.string(), lastSeenAt: z.string(), ip: z.string().nullable(), userAgent: z.string().nullable(), current: z.boolean() })),
          ),
        ),
      },
    },
    handler: async (req) => ok(await listSessions(deps, operatorOf(req))),
  });
  r.route({
    ...routeOf(OpsApi.revokeSession),
    schema: {
      tags: tag('auth'),
      summary: "End one of the operator's own sessions",
      params: inputOf(OpsApi.revokeSession)(idParam),
      response: { 200: envelope(answerOf(OpsApi.revokeSession)(z.null())) },
    },
    handler: async (req) => {
      await revokeSession(deps, operatorOf(req), req.params.id, meta(req));
      return ok(null);
    },
  });

  // ——— Operators (administrator only).
  r.route({
    ...routeOf(OpsApi.operators),
    schema: { tags: tag('operators'), summary: 'Every operator', response: { 200: envelope(answerOf(OpsApi.operators)(z.array(operatorRow))) } },
    handler: async () => ok(await listOperators(deps)),
  });
  r.route({
    ...routeOf(OpsApi.invite),
    schema: {
      tags: tag('operators'),
      summary: 'Invite an operator: created not activated; the activation link is e-mailed (72 h)',
      body: inputOf(OpsApi.invite)(opsInviteSchema),
      response: { 200: envelope(answerOf(OpsApi.invite)(z.object({ id: z.number() }))) },
    },
    handler: async (req) => ok(await inviteOperator(deps, req.body, operatorOf(req), req.lang, meta(req))),
  });
  r.route({
    ...routeOf(OpsApi.resendActivation),
    schema: {
      tags: tag('operators'),
      summary: 'A new activation link for an operator not activated yet (older ones stop working)',
      params: inputOf(OpsApi.resendActivation)(idParam),
      response: { 200: envelope(answerOf(OpsApi.resendActivation)(z.null())) },
    },
    handler: async (req) => {
      await resendActivation(deps, req.params.id, operatorOf(req), req.lang, meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsApi.setRole),
    schema: {
      tags: tag('operators'),
      summary: "Change an operator's role (not one's own; never the last active administrator's)",
      params: inputOf(OpsApi.setRole)(idParam),
      body: inputOf(OpsApi.setRole)(opsRoleSchema),
      response: { 200: envelope(answerOf(OpsApi.setRole)(z.null())) },
    },
    handler: async (req) => {
      await setRole(deps, req.params.id, req.body.role, operatorOf(req), meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsApi.disable),
    schema: {
      tags: tag('operators'),
      summary: 'Disable an operator: its sessions end at once',
      params: inputOf(OpsApi.disable)(idParam),
      response: { 200: envelope(answerOf(OpsApi.disable)(z.null())) },
    },
    handler: async (req) => {
      await setEnabled(deps, req.params.id, false, operatorOf(req), meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsApi.enable),
    schema: { tags: tag('operators'), summary: 'Enable a disabled operator', params: inputOf(OpsApi.enable)(idParam), response: { 200: envelope(answerOf(OpsApi.enable)(z.null())) } },
    handler: async (req) => {
      await setEnabled(deps, req.params.id, true, operatorOf(req), meta(req));
      return ok(null);
    },
  });

  merchantsRoutes(f, deps);
  approvalsRoutes(f, deps);

  opsNoticeRoutes(f, deps);

  // ——— Development only (never in production; loopback callers only, as /api/dev/*): what
  // `npm run ops -- add-operator` does, for the e2e run whose embedded database the CLI cannot open
  // while the server holds it.
  if (deps.config.env !== 'production') {
    r.route({
      ...routeOf(OpsApi.devAddOperator),
      schema: {
        tags: tag('development'),
        summary: 'Development only, loopback only: add-operator (prints the activation link)',
        body: inputOf(OpsApi.devAddOperator)(z.object({ username: opsUsername, email: opsEmail, role: z.enum(OPS_ROLES).default('administrator') })),
        response: { 200: envelope(answerOf(OpsApi.devAddOperator)(z.object({ id: z.number(), link: z.string() }))) },
      },
      handler: async (req) => {
        localOnly(req);
        return ok(await createOperator(deps, req.body, { cli: true }, meta(req)));
      },
    });
  }
}
