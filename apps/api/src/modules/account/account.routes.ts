import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccountApi,
  activeInfoQuerySchema,
  activeSchema,
  bindPhoneSchema,
  Code,
  forgotPasswordSchema,
  phoneCodeSchema,
  requireTotpSchema,
  resetByLinkSchema,
  revokeSessionSchema,
  totpDisableSchema,
  totpEnableSchema,
  updatePasswordSchema,
  updateTimeZoneSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { resolveSession, userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/messages';
import { maxAgeDaysOf, minLengthOf, PASSWORD_HISTORY } from './password.policy';
import { updateTimeZone } from './preferences.service';
import { activate, activeInfo, forgotPassword, resetByLink, resetInfo, updatePassword } from './account.service';
import { bindPhone, listSessions, loginHistory, revokeOtherSessions, revokeSession, securityOverview, sendPhoneCode, setRequireTotp, totpDisable, totpEnable, totpSetup } from './security.service';

import { wechatRoutes } from './wechat.routes';
import { passkeyRoutes } from './passkey.routes';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
/** 30 calls a minute (the routes' access comes from their descriptors, decision 074). */
const limit30 = { rateLimit: { max: 30, timeWindow: '1 minute' } };

const sessionItem = z.object({ id: z.number(), device: z.string(), ip: z.string(), startedAt: z.string(), lastSeenAt: z.string(), current: z.boolean() });
const historyItem = z.object({ id: z.number(), at: z.string(), event: z.enum(['login', 'logout', 'lockout', 'failure']), method: z.string(), reason: z.string(), ip: z.string(), device: z.string() });
const overview = z.object({
  phone: z.string().nullable(),
  wechat: z.object({ available: z.boolean(), bound: z.boolean(), nickname: z.string().nullable() }),
  totp: z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number(), required: z.boolean() }),
  passkeys: z.number().describe('how many passkeys the user has (decision 047)'),
  merchantRequireTotp: z.boolean().nullable(),
});

/** Activation, password change / reset, phone and WeChat binding, TOTP, sessions (issue 11). */
export function accountRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // ---- activation and passwords ----
  r.route({
    ...routeOf(AccountApi.activeInfo, limit30),
    schema: {
      tags: ['account'],
      summary: 'Who an activation link is for (user name, merchant, e-mail masked), or "activation link expired"',
      querystring: inputOf(AccountApi.activeInfo)(activeInfoQuerySchema),
      response: { 200: envelope(answerOf(AccountApi.activeInfo)(z.object({ username: z.string(), merName: z.string(), email: z.string() }).nullable())) },
    },
    handler: async (req) => ok(await activeInfo(deps, req.query.token)),
  });
  r.route({
    ...routeOf(AccountApi.active, limit30),
    schema: {
      tags: ['account'],
      summary: 'Set the first password from the activation link (72 h, single use) and activate',
      body: inputOf(AccountApi.active)(activeSchema),
      response: { 200: envelope(answerOf(AccountApi.active)(z.object({ username: z.string() }).nullable())) },
    },
    handler: async (req) => ok(await activate(deps, req.body, meta(req))),
  });
  r.route({
    ...routeOf(AccountApi.updatePassword, limit30),
    schema: {
      tags: ['account'],
      summary: 'Change the password: signed in (X-Token; other sessions end), or with `username` when the password expired (every session ends)',
      body: inputOf(AccountApi.updatePassword)(updatePasswordSchema),
      response: {
        200: envelope(
          answerOf(AccountApi.updatePassword)(
            z
              .object({ sessionsEnded: z.number() })
              .or(z.object({ remaining: z.number() }))
              .nullable(),
          ),
        ),
      },
    },
    handler: async (req) => {
      const token = req.headers['x-token'];
      if (typeof token === 'string' && token) {
        const u = await resolveSession(deps, token);
        return ok(await updatePassword(deps, { userId: u.id, sessionId: u.sessionId }, req.body, meta(req)));
      }
      if (!req.body.username) throw new AppError(Code.NOT_LOGGED_IN, 'notLoggedIn', {}, 401);
      return ok(await updatePassword(deps, { username: req.body.username }, req.body, meta(req)));
    },
  });
  r.route({
    ...routeOf(AccountApi.forgotPassword, { rateLimit: { max: 10, timeWindow: '1 minute' } }),
    schema: {
      tags: ['account'],
      summary: 'E-mail a reset link (30 min, single use) to the account named by user name or e-mail; the same answer whether or not it exists',
      body: inputOf(AccountApi.forgotPassword)(forgotPasswordSchema),
      response: { 200: envelope(answerOf(AccountApi.forgotPassword)(z.null())) },
    },
    handler: async (req) => {
      await forgotPassword(deps, req.lang, req.body.account, meta(req));
      return { code: 0, msg: t(req.lang, 'resetMailSent'), data: null };
    },
  });
  r.route({
    ...routeOf(AccountApi.resetInfo, limit30),
    schema: {
      tags: ['account'],
      summary: 'Whose reset link this is, or "reset link expired"',
      querystring: inputOf(AccountApi.resetInfo)(activeInfoQuerySchema),
      response: { 200: envelope(answerOf(AccountApi.resetInfo)(z.object({ username: z.string() }).nullable())) },
    },
    handler: async (req) => ok(await resetInfo(deps, req.query.token)),
  });
  r.route({
    ...routeOf(AccountApi.resetByLink, limit30),
    schema: {
      tags: ['account'],
      summary: 'Set a new password from the reset link; every session of the user ends',
      body: inputOf(AccountApi.resetByLink)(resetByLinkSchema),
      response: { 200: envelope(answerOf(AccountApi.resetByLink)(z.object({ username: z.string() }).nullable())) },
    },
    handler: async (req) => ok(await resetByLink(deps, req.body, meta(req))),
  });

  r.route({
    ...routeOf(AccountApi.passwordPolicy),
    schema: {
      tags: ['account'],
      summary: 'The password rules (PASSWORD_MIN_LENGTH, history, PASSWORD_MAX_AGE_DAYS) for the forms',
      response: { 200: envelope(answerOf(AccountApi.passwordPolicy)(z.object({ minLength: z.number(), history: z.number(), maxAgeDays: z.number() }))) },
    },
    handler: async () => ok({ minLength: minLengthOf(deps), history: PASSWORD_HISTORY, maxAgeDays: maxAgeDaysOf(deps) }),
  });

  // ---- security page ----
  r.route({
    ...routeOf(AccountApi.security),
    schema: { tags: ['account'], summary: 'Phone (masked), WeChat, TOTP state; the merchant setting for the main user', response: { 200: envelope(answerOf(AccountApi.security)(overview)) } },
    handler: async (req) => ok(await securityOverview(deps, userOf(req))),
  });
  r.route({
    ...routeOf(AccountApi.updateTimeZone),
    schema: {
      tags: ['account'],
      summary: "The zone every shown time is in for this user: an IANA name (Asia/Tokyo); absent or '' for the browser's; audit-logged",
      body: inputOf(AccountApi.updateTimeZone)(updateTimeZoneSchema),
      response: { 200: envelope(answerOf(AccountApi.updateTimeZone)(z.object({ timeZone: z.string().nullable() }))) },
    },
    handler: async (req) => ok(await updateTimeZone(deps, userOf(req), req.body.timeZone, meta(req))),
  });
  r.route({
    ...routeOf(AccountApi.phoneCode, limit30),
    schema: {
      tags: ['account'],
      summary: 'SMS a 6-digit code to bind this E.164 number (5 min, 60 s between sends, 5 tries)',
      body: inputOf(AccountApi.phoneCode)(phoneCodeSchema),
      response: {
        200: envelope(
          answerOf(AccountApi.phoneCode)(
            z
              .object({ resendAfter: z.number(), expiresIn: z.number() })
              .or(z.object({ wait: z.number() }))
              .nullable(),
          ),
        ),
      },
    },
    handler: async (req) => ok(await sendPhoneCode(deps, req.lang, userOf(req), req.body.phone, meta(req))),
  });
  r.route({
    ...routeOf(AccountApi.phoneBind, limit30),
    schema: {
      tags: ['account'],
      summary: 'Bind the phone with the SMS code',
      body: inputOf(AccountApi.phoneBind)(bindPhoneSchema),
      response: { 200: envelope(answerOf(AccountApi.phoneBind)(z.object({ phone: z.string() }).nullable())) },
    },
    handler: async (req) => ok(await bindPhone(deps, userOf(req), req.body.phone, req.body.code, meta(req))),
  });

  wechatRoutes(app, deps);

  // ---- TOTP ----
  r.route({
    ...routeOf(AccountApi.totpSetup, limit30),
    schema: {
      tags: ['account'],
      summary: 'Start TOTP enrolment: secret and otpauth:// URL for the QR',
      response: { 200: envelope(answerOf(AccountApi.totpSetup)(z.object({ secret: z.string(), otpauthUrl: z.string() }).nullable())) },
    },
    handler: async (req) => ok(await totpSetup(deps, userOf(req))),
  });
  r.route({
    ...routeOf(AccountApi.totpEnable, limit30),
    schema: {
      tags: ['account'],
      summary: 'Confirm enrolment with a code; answers ten recovery codes, shown once',
      body: inputOf(AccountApi.totpEnable)(totpEnableSchema),
      response: { 200: envelope(answerOf(AccountApi.totpEnable)(z.object({ recoveryCodes: z.array(z.string()) }).nullable())) },
    },
    handler: async (req) => ok(await totpEnable(deps, userOf(req), req.body.code, meta(req))),
  });
  r.route({
    ...routeOf(AccountApi.totpDisable, limit30),
    schema: {
      tags: ['account'],
      summary: 'Turn TOTP off with password and a current code',
      body: inputOf(AccountApi.totpDisable)(totpDisableSchema),
      response: { 200: envelope(answerOf(AccountApi.totpDisable)(z.object({ remaining: z.number() }).nullable())) },
    },
    handler: async (req) => {
      await totpDisable(deps, userOf(req), req.body.password, req.body.code, meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(AccountApi.requireTotp, limit30),
    schema: {
      tags: ['account'],
      summary: 'Main user: require every user of the merchant to enrol TOTP at the next sign-in',
      description: 'Switching it on is at once; switching it off waits for a second administrator (issue 47): code 1234 with the request id, the rule stays on until approved.',
      body: inputOf(AccountApi.requireTotp)(requireTotpSchema),
      response: { 200: envelope(answerOf(AccountApi.requireTotp)(z.object({ require: z.boolean() }))) },
    },
    handler: async (req) => ok(await setRequireTotp(deps, userOf(req), req.body.require, meta(req))),
  });

  passkeyRoutes(app, deps);

  // ---- sessions ----
  r.route({
    ...routeOf(AccountApi.sessions),
    schema: {
      tags: ['account'],
      summary: "The user's active sessions (device from the User-Agent, address, started, last seen), times in the caller's offset",
      response: { 200: envelope(answerOf(AccountApi.sessions)(z.array(sessionItem))) },
    },
    handler: async (req) => ok(await listSessions(deps, userOf(req), req.tzOffset)),
  });
  r.route({
    ...routeOf(AccountApi.revokeSession, limit30),
    schema: {
      tags: ['account'],
      summary: "Sign out one of the user's sessions (another user's answers 404)",
      body: inputOf(AccountApi.revokeSession)(revokeSessionSchema),
      response: { 200: envelope(answerOf(AccountApi.revokeSession)(z.null())) },
    },
    handler: async (req) => {
      await revokeSession(deps, userOf(req), req.body.id, meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(AccountApi.revokeOtherSessions, limit30),
    schema: { tags: ['account'], summary: 'Sign out every other session of the user', response: { 200: envelope(answerOf(AccountApi.revokeOtherSessions)(z.object({ ended: z.number() }))) } },
    handler: async (req) => ok(await revokeOtherSessions(deps, userOf(req), meta(req))),
  });
  r.route({
    ...routeOf(AccountApi.loginHistory),
    schema: { tags: ['account'], summary: 'The last 30 sign-in events of the user', response: { 200: envelope(answerOf(AccountApi.loginHistory)(z.array(historyItem))) } },
    handler: async (req) => ok(await loginHistory(deps, userOf(req), req.tzOffset)),
  });
}
