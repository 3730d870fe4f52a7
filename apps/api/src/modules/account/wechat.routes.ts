import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccountApi, AuthApi, wechatCallbackQuerySchema, wechatTicketSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { WECHAT_BIND, WECHAT_LOGIN, wechatAuthorize, wechatCallback, wechatLogin, wechatUnbind, wechatBrowserCookie, wechatBrowserOf } from './security.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
/** 30 calls a minute (the routes' access comes from their descriptors, decision 074). */
const limit30 = { rateLimit: { max: 30, timeWindow: '1 minute' } };
const tokenPair = z.object({ token: z.string(), refreshToken: z.string(), expiresIn: z.number() });
/** Where WeChat sends the browser back: always PUBLIC_URL (development default http://localhost:PORT) — never the request's Host (issue 10, finding 3). */
const origin = (deps: Deps) => deps.config.publicUrl.replace(/\/+$/, '');
const callbackUrl = (deps: Deps) => `${origin(deps)}/api/user/wechat/callback`;

/** Signing in with WeChat and binding a WeChat account (the QR code, its callback, the binding). */
export function wechatRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // ---- WeChat ----
  r.route({
    ...routeOf(AuthApi.wechatAvailable),
    schema: {
      tags: ['account'],
      summary: 'Whether WeChat (WECHAT_*) is configured: the buttons are hidden otherwise',
      response: { 200: envelope(answerOf(AuthApi.wechatAvailable)(z.object({ available: z.boolean() }))) },
    },
    handler: async () => ok({ available: !!deps.config.wechat }),
  });
  r.route({
    ...routeOf(AccountApi.wechatBindUrl, limit30),
    schema: {
      tags: ['account'],
      summary: 'Authorize URL to bind the signed-in user to a WeChat account',
      response: { 200: envelope(answerOf(AccountApi.wechatBindUrl)(z.object({ url: z.string() }).nullable())) },
    },
    handler: async (req, reply) => {
      const { url, browser } = await wechatAuthorize(deps, WECHAT_BIND, callbackUrl(deps), userOf(req).id);
      reply.header('set-cookie', wechatBrowserCookie(browser, origin(deps).startsWith('https:')));
      return ok({ url });
    },
  });
  r.route({
    ...routeOf(AuthApi.wechatLoginUrl, limit30),
    schema: { tags: ['account'], summary: 'Authorize URL to sign in with WeChat', response: { 200: envelope(answerOf(AuthApi.wechatLoginUrl)(z.object({ url: z.string() }).nullable())) } },
    handler: async (req, reply) => {
      const { url, browser } = await wechatAuthorize(deps, WECHAT_LOGIN, callbackUrl(deps));
      reply.header('set-cookie', wechatBrowserCookie(browser, origin(deps).startsWith('https:')));
      return ok({ url });
    },
  });
  r.route({
    ...routeOf(AuthApi.wechatCallback, limit30),
    schema: { tags: ['account'], summary: 'WeChat redirects here with code and state; answers a redirect to the portal', querystring: inputOf(AuthApi.wechatCallback)(wechatCallbackQuerySchema) },
    handler: async (req, reply) => {
      const { code, state } = req.query;
      const to = code && state ? await wechatCallback(deps, code, state, wechatBrowserOf(req.headers.cookie), meta(req)) : '/login?wechat=failed';
      // The browser's half is used once: cleared on the way back.
      reply.header('set-cookie', wechatBrowserCookie('', origin(deps).startsWith('https:'), 0));
      return reply.redirect(to, 302);
    },
  });
  r.route({
    ...routeOf(AuthApi.wechatLogin, limit30),
    schema: {
      tags: ['account'],
      summary: 'Trade the one-time ticket of a WeChat sign-in for tokens, after the second factor: without verifyCode, answers which one is asked (the e-mailed code is sent then)',
      body: inputOf(AuthApi.wechatLogin)(wechatTicketSchema),
      response: {
        200: envelope(
          answerOf(AuthApi.wechatLogin)(
            tokenPair
              .or(z.object({ secondFactor: z.enum(['totp', 'email']), resendAfter: z.number() }))
              .or(z.object({ remaining: z.number() }))
              .nullable(),
          ),
        ),
      },
    },
    handler: async (req) => ok(await wechatLogin(deps, req.body.ticket, req.body.verifyCode || undefined, req.lang, meta(req))),
  });
  r.route({
    ...routeOf(AccountApi.wechatUnbind, limit30),
    schema: { tags: ['account'], summary: 'Remove the WeChat binding', response: { 200: envelope(answerOf(AccountApi.wechatUnbind)(z.null())) } },
    handler: async (req) => {
      await wechatUnbind(deps, userOf(req), meta(req));
      return ok(null);
    },
  });
}
