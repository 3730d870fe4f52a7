import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Code, cashierSchema, pageQuerySchema, payInStoreRowSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { CashierApi, PayInStoreApi } from '@portal/contract';
import { AppError } from '../../lib/errors';
import { linkBaseOf } from '../paybylink';
import { countOrders, expireDue, listOrders } from '../paybylink';
import { syncProcessing } from '../paybylink';
import { pisWhere } from './payinstore.repo';
import { toPisRow } from './payinstore.service';
import {
  CASHIER_BROWSER_COOKIE,
  CASHIER_COOKIE,
  CASHIER_SESSION_HOURS,
  bindQr,
  cashierBrowserCookie,
  cashierCallback,
  cashierOf,
  endCashierSession,
  listCashiers,
  loginUrl,
  unbindCashier,
} from './cashier.service';

const tags = ['cashier'];
const cookieOf = (req: FastifyRequest, name = CASHIER_COOKIE): string | undefined => {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
};
const setCookie = (req: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) =>
  reply.header('Set-Cookie', `${CASHIER_COOKIE}=${value}; Path=/api/cashier; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${req.protocol === 'https' ? '; Secure' : ''}`);
const signInFirst = () => new AppError(Code.NOT_LOGGED_IN, 'cashierSignIn', {}, 401);

/**
 * Cashier management (main users: list, bind QR, unbind) and the cashier view (a bound cashier,
 * signed in with WeChat: an HttpOnly cookie on /api/cashier, the in-store orders of its store only).
 */
export function cashierRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = deps.config.platformTz;

  r.route({
    ...routeOf(PayInStoreApi.cashiers),
    schema: {
      tags,
      summary: "The bound cashiers of the caller's stores (one store with storeId): cashierId, WeChat name, binding date",
      querystring: inputOf(PayInStoreApi.cashiers)(z.object({ storeId: z.string().trim().max(20).optional() })),
      response: { 200: envelope(answerOf(PayInStoreApi.cashiers)(z.array(cashierSchema))) },
    },
    handler: async (req) => ok(await listCashiers(deps, userOf(req), req.query.storeId || undefined)),
  });

  r.route({
    ...routeOf(PayInStoreApi.bindQr, { rateLimit: { max: 30, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: "Bind a cashier: the WeChat authorisation URL the QR shows (10 minutes). Whoever scans and agrees becomes the store's cashier",
      description: "Code 1401 when WeChat (WECHAT_*) is not configured; another merchant's store: 404.",
      body: inputOf(PayInStoreApi.bindQr)(z.object({ storeId: z.string().trim().min(1).max(20) })),
      response: { 200: envelope(answerOf(PayInStoreApi.bindQr)(z.object({ url: z.string(), expiresIn: z.number() }))) },
    },
    handler: async (req) => ok(await bindQr(deps, userOf(req), req.body.storeId, linkBaseOf(deps, req))),
  });

  r.route({
    ...routeOf(PayInStoreApi.unbind),
    schema: {
      tags,
      summary: 'Unbind a cashier (form: cashierId); its cashier sessions end at once',
      body: inputOf(PayInStoreApi.unbind)(
        z.object({
          cashierId: z
            .string()
            .trim()
            .regex(/^C\d{8}$/),
        }),
      ),
      response: { 200: envelope(answerOf(PayInStoreApi.unbind)(z.null())) },
    },
    handler: async (req) => {
      await unbindCashier(deps, userOf(req), req.body.cashierId, req.ip);
      return ok(null);
    },
  });

  r.route({
    ...routeOf(CashierApi.wechatCallback, { rateLimit: { max: 60, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: "WeChat's redirect after the cashier agreed (code, state): binds or signs in, then goes to the cashier view",
      querystring: inputOf(CashierApi.wechatCallback)(z.object({ code: z.string().max(200).default(''), state: z.string().max(200).default('') })),
    },
    handler: async (req, reply) => {
      const res = await cashierCallback(deps, req.query.code, req.query.state, req.ip, cookieOf(req, CASHIER_BROWSER_COOKIE));
      // The browser's half is used once: cleared on the way back (a second Set-Cookie beside the session's).
      const clear = cashierBrowserCookie('', deps.config.publicUrl.startsWith('https:'), 0);
      if (res.token) setCookie(req, reply, res.token, CASHIER_SESSION_HOURS * 3600);
      const prior = reply.getHeader('set-cookie');
      reply.header('set-cookie', [...(prior === undefined ? [] : Array.isArray(prior) ? prior.map(String) : [String(prior)]), clear]);
      return reply.redirect(res.to);
    },
  });

  r.route({
    ...routeOf(CashierApi.wechatLogin, { rateLimit: { max: 30, timeWindow: '1 minute' } }),
    schema: { tags, summary: "The cashier view's 'Sign in with WeChat' (302 to WeChat)" },
    handler: async (req, reply) => {
      const { url, browser } = await loginUrl(deps, linkBaseOf(deps, req));
      reply.header('set-cookie', cashierBrowserCookie(browser, deps.config.publicUrl.startsWith('https:')));
      return reply.redirect(url);
    },
  });

  r.route({
    ...routeOf(CashierApi.me),
    schema: {
      tags,
      summary: 'The signed-in cashier (cookie): cashierId, WeChat name, store and merchant; code -1 when not signed in',
      response: {
        200: envelope(answerOf(CashierApi.me)(z.object({ cashierId: z.string(), wechatName: z.string(), storeId: z.string(), storeName: z.string(), merId: z.string(), merName: z.string() }))),
      },
    },
    handler: async (req) => {
      const c = await cashierOf(deps, cookieOf(req));
      if (!c) throw signInFirst();
      return ok(c);
    },
  });

  r.route({
    ...routeOf(CashierApi.orders, { rateLimit: { max: 120, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: "The signed-in cashier's view: its store's in-store orders, newest first",
      querystring: inputOf(CashierApi.orders)(pageQuerySchema),
      response: { 200: envelope(answerOf(CashierApi.orders)(pageOf(payInStoreRowSchema))) },
    },
    handler: async (req) => {
      const c = await cashierOf(deps, cookieOf(req));
      if (!c) throw signInFirst();
      await expireDue(deps.db, deps.clock.now(), { scope: [c.merId] });
      const w = pisWhere({ storeId: c.storeId }, [c.merId], tz);
      let [rows, total] = await Promise.all([listOrders(deps.db.read, w, req.query.page, req.query.size), countOrders(deps.db.read, w)]);
      const pending = rows.filter((o) => o.status === '04' && o.open_status === '00');
      if (pending.length && (await Promise.all(pending.map((o) => syncProcessing(deps, o)))).some(Boolean)) rows = await listOrders(deps.db, w, req.query.page, req.query.size);
      return ok({ content: rows.map((o) => toPisRow(o, tz)), totalElements: total });
    },
  });

  r.route({
    ...routeOf(CashierApi.logout),
    schema: { tags, summary: 'Ends the cashier session (cookie)', response: { 200: envelope(answerOf(CashierApi.logout)(z.null())) } },
    handler: async (req, reply) => {
      const token = cookieOf(req);
      if (token) await endCashierSession(deps, token);
      setCookie(req, reply, '', 0);
      return ok(null);
    },
  });
}
