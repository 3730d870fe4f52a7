import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CheckoutApi, storeCheckoutOrderSchema, storeCheckoutSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { notFound } from '../../lib/errors';
import { linkBaseOf } from '../paybylink';
import { findStoreByToken } from './store.repo';
import { storeCurrencies, storeEnabled } from './store.rules';
import { createStaticOrder, logoList, notEnabled } from './payinstore.service';

const tags = ['checkout'];
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const tokenParam = z.object({ token: z.string().max(100) });

/**
 * A store's static QR (/pay/store/{token}, public: the printed sign's token is the key): the buyer
 * sees the store, enters the amount, and is sent to the hosted checkout of a new in-store order.
 */
export function storeCheckoutRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const store = async (token: string) => {
    const s = TOKEN_RE.test(token) ? await findStoreByToken(deps.db, token) : null;
    if (!s) throw notFound();
    if (!storeEnabled(s)) throw notEnabled();
    return s;
  };

  r.route({
    ...routeOf(CheckoutApi.store, { rateLimit: { max: 120, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: "A store's static QR: merchant and store name, the currencies and methods it takes",
      params: inputOf(CheckoutApi.store)(tokenParam),
      response: { 200: envelope(answerOf(CheckoutApi.store)(storeCheckoutSchema)) },
    },
    handler: async (req) => {
      const s = await store(req.params.token);
      return ok({ merName: s.mer_name, storeName: s.name, currencies: storeCurrencies(s), methods: logoList(s) });
    },
  });

  r.route({
    ...routeOf(CheckoutApi.storeOrder, { rateLimit: { max: 30, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: 'The buyer entered an amount on the static QR (form: orderCurrency, totalAmount): creates an in-store order and returns its checkout link',
      params: inputOf(CheckoutApi.storeOrder)(tokenParam),
      body: inputOf(CheckoutApi.storeOrder)(storeCheckoutOrderSchema),
      response: { 200: envelope(answerOf(CheckoutApi.storeOrder)(z.object({ orderNo: z.string(), link: z.string() }))) },
    },
    handler: async (req) => {
      await store(req.params.token);
      const o = await createStaticOrder(deps, req.params.token, req.body, { lang: req.lang, linkBase: linkBaseOf(deps, req), ip: req.ip });
      return ok({ orderNo: o.orderNo, link: o.link });
    },
  });
}
