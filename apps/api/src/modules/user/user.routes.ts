import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuthApi, checkPasswordSchema, getEmailCodeSchema, loginSchema, refreshTokenSchema, routersFor } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { ok, envelope } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { checkPassword, login, sendEmailCode } from './login.service';
import { logout, refresh } from './session.service';

// lang: the language of the user's e-mails from the portal's jobs (decision 048), recorded at sign-in.
const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'], lang: req.lang });
const tokenPair = z.object({ token: z.string(), refreshToken: z.string(), expiresIn: z.number() });
const authLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

const userInfoSchema = z.object({
  username: z.string(),
  userAdmin: z.boolean(),
  merName: z.string(),
  merId: z.string(),
  routers: z.array(z.any()),
  permissions: z.array(z.string()),
  email: z.string(),
  mustEnrolTotp: z.boolean().optional().describe('the merchant requires a second factor this user has not enrolled yet'),
  timeZone: z.string().nullable().optional().describe("the IANA zone the user chose for shown times; null: the browser's"),
  viewAs: z
    .object({ id: z.number(), operator: z.string(), merName: z.string(), expiresAt: z.string() })
    .nullable()
    .optional()
    .describe('a support operator viewing this merchant read-only (decision 046): the portal shows a banner; every change is refused'),
});

export function userRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(AuthApi.getEmailCode, authLimit),
    schema: {
      tags: ['user'],
      summary:
        'Sign-in step 1. With `password` (checked first, counted toward the lockout; unknown names and wrong passwords answer alike): names the second factor — `totp`, a required `passkey`, or a 6-digit code e-mailed (valid 5 min; a new one after 60 s; 5 wrong tries). Without it every name answers alike (a code is e-mailed to e-mail accounts only)',
      body: inputOf(AuthApi.getEmailCode)(getEmailCodeSchema),
      response: {
        200: envelope(
          answerOf(AuthApi.getEmailCode)(
            z
              .object({
                resendAfter: z.number(),
                expiresIn: z.number(),
                totp: z.boolean().describe("true (only after the right password): no mail, the code is the authenticator's"),
                passkey: z.boolean().optional().describe("true (only after the right password): no mail, the merchant requires this user's passkey (decision 047)"),
              })
              .or(z.object({ wait: z.number() }))
              .or(z.object({ remaining: z.number() }))
              .or(z.object({ username: z.string() })),
          ),
        ),
      },
    },
    handler: async (req) => ok(await sendEmailCode(deps, req.lang, req.body.username, meta(req), req.body.password)),
  });

  r.route({
    ...routeOf(AuthApi.login, authLimit),
    schema: {
      tags: ['user'],
      summary: 'Sign in with user name, password and e-mailed code (or authenticator / recovery code when TOTP is on)',
      body: inputOf(AuthApi.login)(loginSchema),
      response: { 200: envelope(answerOf(AuthApi.login)(tokenPair.or(z.object({ remaining: z.number() })).or(z.object({ username: z.string() })))) },
    },
    handler: async (req) => ok(await login(deps, req.body, meta(req))),
  });

  r.route({
    ...routeOf(AuthApi.refreshToken, authLimit),
    schema: {
      tags: ['user'],
      summary: 'Rotate the token pair; a refresh token reused after the grace window revokes the session',
      body: inputOf(AuthApi.refreshToken)(refreshTokenSchema),
      response: { 200: envelope(answerOf(AuthApi.refreshToken)(tokenPair)) },
    },
    handler: async (req) => ok(await refresh(deps, req.body.refreshToken, meta(req))),
  });

  r.route({
    ...routeOf(AuthApi.logout),
    schema: { tags: ['user'], summary: 'End the session of X-Token (even an expired one)', response: { 200: envelope(answerOf(AuthApi.logout)(z.null())) } },
    handler: async (req) => {
      const token = req.headers['x-token'];
      if (typeof token === 'string' && token) await logout(deps, token, meta(req));
      return ok(null);
    },
  });

  r.route({
    ...routeOf(AuthApi.info),
    schema: {
      tags: ['user'],
      summary: 'The signed-in user, the routers and permissions it holds',
      querystring: inputOf(AuthApi.info)(z.object({ flag: z.string().optional() })),
      response: { 200: envelope(answerOf(AuthApi.info)(userInfoSchema)) },
    },
    handler: async (req) => {
      const u = userOf(req);
      return ok({
        username: u.username,
        userAdmin: u.userAdmin,
        merName: u.merName,
        merId: u.merId,
        routers: routersFor(u.permissions),
        permissions: u.permissions,
        email: u.email,
        mustEnrolTotp: !!u.mustEnrolTotp,
        timeZone: u.timeZone ?? null,
        viewAs: u.viewAs ? { id: u.viewAs.id, operator: u.viewAs.operator, merName: u.merName, expiresAt: u.viewAs.expiresAt.toISOString() } : null,
      });
    },
  });

  r.route({
    ...routeOf(AuthApi.checkPassword, authLimit),
    schema: {
      tags: ['user'],
      summary: 'Re-check the password: allows refunds for 5 minutes; wrong ones count toward lockout',
      body: inputOf(AuthApi.checkPassword)(checkPasswordSchema),
      response: { 200: envelope(answerOf(AuthApi.checkPassword)(z.boolean().or(z.object({ remaining: z.number() })))) },
    },
    handler: async (req) => {
      const u = userOf(req);
      return ok(await checkPassword(deps, u.id, u.sessionId, req.body.password, meta(req)));
    },
  });
}
