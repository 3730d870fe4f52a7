import type { RouteSetup } from '../contract';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  isoDate,
  opsBankAccountSchema,
  opsFeeScheduleSchema,
  OPS_ROLES,
  opsCreateMerchantSchema,
  opsLockSchema,
  opsMerchantFieldsSchema,
  opsMerchantListQuerySchema,
  opsActivateSchema,
  opsInviteSchema,
  opsLinkToken,
  opsLoginSchema,
  opsRefreshSchema,
  opsRoleSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { ok, envelope } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { OpsApi, OpsMerchantsApi } from '@portal/contract';
import { login } from '../user';
import { logout, refresh } from '../user';
import { OPERATOR_REALM } from '../user';
import { operatorOf, registerOpsAuth } from './ops.auth';
import { localOnly } from '../dev';
import { portalDocTransform } from '../../lib/openapi';
import { createOperator } from './operators.service';
import { opsEmail, opsUsername } from '@portal/contract';
import { searchAudit } from './audit.service';
import { viewAsRoutes } from './view-as.routes';
import { endExpiredViewAs } from './view-as.service';
import { runsRoutes } from './runs.routes';
import { ratesRoutes } from './rates.routes';
import { opsNoticeRoutes } from './notices.routes';
import { decideBankChange, editBankChange, listBankChanges } from './approvals.service';
import { addFeeSchedule, feeHistory, createMerchant, editMerchant, getMerchant, listMerchants, resendMainUserActivation, setLocked } from './merchants.service';
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

  // ——— Merchants: every role reads; onboarding creates and edits; risk locks.
  const merParam = z.object({ merId: z.string().regex(/^\d{15}$/, 'merchant id') });
  const s = z.string().nullable();
  const merchantRow = z.object({
    merId: z.string(),
    attribute: z.enum(['GROUP', 'SUB', 'INDEPENDENT']),
    parentId: s,
    parentName: s,
    locked: z.boolean(),
    lockReason: s,
    createdAt: z.string(),
    name: z.string(),
    webStoreName: s,
    corporationName: s,
    companyAddress: s,
    country: s,
    city: s,
    postcode: s,
    mcc: s,
    legalRegNo: s,
    merchantUrl: s,
    defaultCurrency: z.string(),
    settleCurrency: z.string(),
    channels: z.array(z.string()),
    currencies: z.array(z.string()),
    principalName: s,
    principalEmail: s,
    principalTel: s,
    dailyLimit: z.number().nullable(),
  });
  const feeRow = z.object({
    busLine: z.string(),
    mdrBp: z.number(),
    fixedFee: z.number(),
    cycleDays: z.number(),
    reserveBp: z.number(),
    reserveHoldDays: z.number(),
    tranThreshold: z.number(),
    tranFee: z.number(),
    transferPeriod: z.string(),
    disputeFee: z.number(),
    effectiveFrom: s,
  });
  const merchantDetail = merchantRow.extend({
    fees: z.array(feeRow),
    bankAccounts: z.array(
      z.object({
        id: z.number(),
        beneficiaryBank: z.string(),
        swiftCode: z.string(),
        accountName: z.string(),
        accountNumber: z.string(),
        country: z.string(),
        currency: z.string(),
        isDefault: z.boolean(),
      }),
    ),
    users: z.array(z.object({ username: z.string(), email: z.string(), status: z.string(), main: z.boolean() })),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.list),
    schema: {
      tags: tag('merchants'),
      summary: 'Every merchant, searched (id, name, company) and filtered (status, kind, group, channel, created)',
      querystring: inputOf(OpsMerchantsApi.list)(opsMerchantListQuerySchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.list)(z.object({ content: z.array(merchantRow), totalElements: z.number() }))) },
    },
    handler: async (req) => ok(await listMerchants(deps, req.query)),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.get),
    schema: {
      tags: tag('merchants'),
      summary: 'A merchant with its fee schedules, bank accounts (numbers masked) and users',
      params: inputOf(OpsMerchantsApi.get)(merParam),
      response: { 200: envelope(answerOf(OpsMerchantsApi.get)(merchantDetail)) },
    },
    handler: async (req) => ok(await getMerchant(deps, req.params.merId)),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.create),
    schema: {
      tags: tag('merchants'),
      summary: 'Create a group, sub-merchant or independent merchant: fields, channels, currencies, fee schedules (from today), bank account, main user (activation e-mail). JSON body.',
      body: inputOf(OpsMerchantsApi.create)(opsCreateMerchantSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.create)(z.object({ merId: z.string(), mainUserId: z.number().nullable(), mailed: z.boolean() }))) },
    },
    handler: async (req) => ok(await createMerchant(deps, req.body, operatorOf(req), req.lang, meta(req))),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.edit),
    schema: {
      tags: tag('merchants'),
      summary: "Edit a merchant's fields (not its kind or group). JSON body.",
      params: inputOf(OpsMerchantsApi.edit)(merParam),
      body: inputOf(OpsMerchantsApi.edit)(opsMerchantFieldsSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.edit)(z.null())) },
    },
    handler: async (req) => {
      await editMerchant(deps, req.params.merId, req.body, operatorOf(req), meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsMerchantsApi.fees),
    schema: {
      tags: tag('fees'),
      summary: 'Every dated fee schedule of the merchant (newest day first): in force, past or to come',
      params: inputOf(OpsMerchantsApi.fees)(merParam),
      response: {
        200: envelope(answerOf(OpsMerchantsApi.fees)(z.array(feeRow.extend({ effectiveFrom: z.string(), enteredBy: s, enteredAt: z.string(), state: z.enum(['FUTURE', 'IN_FORCE', 'PAST']) })))),
      },
    },
    handler: async (req) => ok(await feeHistory(deps, req.params.merId)),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.addFees),
    schema: {
      tags: tag('fees'),
      summary:
        'New fee schedules for some business lines from a day on (today or later, after the last settlement run); the settlement run of each day reads the schedule in force that day. JSON body.',
      params: inputOf(OpsMerchantsApi.addFees)(merParam),
      body: inputOf(OpsMerchantsApi.addFees)(opsFeeScheduleSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.addFees)(z.null())) },
    },
    handler: async (req) => {
      await addFeeSchedule(deps, req.params.merId, req.body, operatorOf(req), meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsMerchantsApi.resendActivation),
    schema: {
      tags: tag('merchants'),
      summary: "E-mail a new activation link to the merchant's main user that has not activated yet",
      params: inputOf(OpsMerchantsApi.resendActivation)(merParam),
      response: { 200: envelope(answerOf(OpsMerchantsApi.resendActivation)(z.null())) },
    },
    handler: async (req) => {
      await resendMainUserActivation(deps, req.params.merId, req.lang, meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsMerchantsApi.lock),
    schema: {
      tags: tag('merchants'),
      summary: 'Lock a merchant: it accepts no transactions; its users get a notice with the reason',
      params: inputOf(OpsMerchantsApi.lock)(merParam),
      body: inputOf(OpsMerchantsApi.lock)(opsLockSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.lock)(z.null())) },
    },
    handler: async (req) => {
      await setLocked(deps, req.params.merId, { reason: req.body.reason }, operatorOf(req), meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsMerchantsApi.unlock),
    schema: { tags: tag('merchants'), summary: 'Unlock a merchant', params: inputOf(OpsMerchantsApi.unlock)(merParam), response: { 200: envelope(answerOf(OpsMerchantsApi.unlock)(z.null())) } },
    handler: async (req) => {
      await setLocked(deps, req.params.merId, null, operatorOf(req), meta(req));
      return ok(null);
    },
  });

  // ——— Approvals: bank-account change requests of every merchant (four eyes: who changed one may not decide it).
  const reasonBody = z.object({
    reason: z
      .string()
      .trim()
      .min(3)
      .max(500)
      .refine((v) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/.test(v), 'control characters'),
  });
  const bankChangeRow = z.object({
    id: z.number(),
    merId: z.string(),
    merName: z.string(),
    status: z.enum(['PENDING', 'APPROVED', 'REJECTED']),
    beneficiaryBank: z.string(),
    swiftCode: z.string(),
    bankAddress: s,
    accountName: z.string(),
    accountNumber: z.string(),
    country: z.string(),
    currency: z.string(),
    documentName: z.string(),
    requestedBy: z.string(),
    requestedAt: z.string(),
    changedBy: s,
    decidedBy: s,
    decidedAt: s,
    reason: s,
  });
  r.route({
    ...routeOf(OpsMerchantsApi.bankChanges),
    schema: {
      tags: tag('approvals'),
      summary: 'Bank-account change requests of every merchant, pending first',
      querystring: inputOf(OpsMerchantsApi.bankChanges)(z.object({ status: z.enum(['PENDING', 'APPROVED', 'REJECTED']).optional() })),
      response: { 200: envelope(answerOf(OpsMerchantsApi.bankChanges)(z.array(bankChangeRow))) },
    },
    handler: async (req) => ok(await listBankChanges(deps, req.query.status)),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.bankChange),
    schema: {
      tags: tag('approvals'),
      summary: 'Correct a pending request (the operator who does may not decide it). JSON body.',
      params: inputOf(OpsMerchantsApi.bankChange)(idParam),
      body: inputOf(OpsMerchantsApi.bankChange)(opsBankAccountSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.bankChange)(z.null())) },
    },
    handler: async (req) => {
      await editBankChange(deps, req.params.id, req.body, operatorOf(req), meta(req));
      return ok(null);
    },
  });
  for (const [endpoint, decision] of [
    [OpsMerchantsApi.approveBankChange, 'APPROVED'],
    [OpsMerchantsApi.rejectBankChange, 'REJECTED'],
  ] as const) {
    r.route({
      ...routeOf(endpoint),
      schema: {
        tags: tag('approvals'),
        summary: `${decision === 'APPROVED' ? 'Approve' : 'Reject'} a pending request with a reason; the merchant gets a notice and the requester an e-mail`,
        params: idParam,
        body: reasonBody,
        response: { 200: envelope(answerOf(endpoint)(z.object({ id: z.number(), merId: z.string(), status: z.string(), accountId: z.number().nullable() }))) },
      },
      handler: async (req) => ok(await decideBankChange(deps, req.params.id, decision, req.body.reason, operatorOf(req), req.lang, meta(req))),
    });
  }

  // ——— The audit log across merchants (every role reads).
  r.route({
    ...routeOf(OpsMerchantsApi.audit),
    schema: {
      tags: tag('audit'),
      summary: "Audit entries of merchants' users and of operators, newest first: by merchant, action prefix, actor, platform days (at most 92)",
      querystring: inputOf(OpsMerchantsApi.audit)(
        z
          .object({
            page: z.coerce.number().int().min(0).max(100000).default(0),
            size: z.coerce.number().int().min(1).max(100).default(20),
            merId: z
              .string()
              .regex(/^\d{15}$/, 'merchant id')
              .optional(),
            action: z
              .string()
              .trim()
              .max(60)
              .regex(/^[a-z0-9_.]*$/, 'action')
              .optional(),
            actor: z
              .string()
              .trim()
              .max(128)
              .regex(/^[A-Za-z0-9_.@:-]*$/, 'actor')
              .optional(),
            operatorsOnly: z.enum(['true', 'false']).optional(),
            from: isoDate,
            to: isoDate,
          })
          .refine((v) => v.from <= v.to && Date.parse(v.to) - Date.parse(v.from) <= 92 * 86400000, { path: ['to'], message: 'from ≤ to, at most 92 days' }),
      ),
      response: {
        200: envelope(
          answerOf(OpsMerchantsApi.audit)(
            z.object({
              content: z.array(
                z.object({ id: z.number(), at: z.string(), actor: s, byOperator: z.boolean(), merId: s, action: z.string(), outcome: z.string(), target: s, detail: z.string(), ip: s }),
              ),
              totalElements: z.number(),
            }),
          ),
        ),
      },
    },
    handler: async (req) =>
      ok(await searchAudit(deps, { ...req.query, operatorsOnly: req.query.operatorsOnly === 'true', action: req.query.action || undefined, actor: req.query.actor || undefined })),
  });

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
