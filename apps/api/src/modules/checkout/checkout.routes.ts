import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CheckoutApi, checkoutOrderSchema, checkoutPayResultSchema, checkoutPaySchema, textInput } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { notFound } from '../../lib/errors';
import { checkoutView, payCheckout } from './checkout.service';

const tags = ['checkout'];
const tokenParam = z.object({ token: textInput(100) });
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const tokenOf = (t: string) => {
  if (!TOKEN_RE.test(t)) throw notFound();
  return t;
};

/**
 * The buyer's side of a pay link (public: the token in /pay/{token} is the only key, 256 random
 * bits). The page itself is the `pay.html` bundle the server hands out for GET /pay/*.
 */
export function checkoutRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(CheckoutApi.order, { rateLimit: { max: 120, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: 'The order behind a pay link: merchant, goods, amount, payment methods, last payment result',
      params: inputOf(CheckoutApi.order)(tokenParam),
      response: { 200: envelope(answerOf(CheckoutApi.order)(checkoutOrderSchema)) },
    },
    handler: async (req) => ok(await checkoutView(deps, tokenOf(req.params.token), { lang: req.lang, record: true })),
  });

  r.route({
    ...routeOf(CheckoutApi.status, { rateLimit: { max: 120, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: 'The same, without recording a visit (the page polls it while a payment is processing)',
      params: inputOf(CheckoutApi.status)(tokenParam),
      response: { 200: envelope(answerOf(CheckoutApi.status)(checkoutOrderSchema)) },
    },
    handler: async (req) => ok(await checkoutView(deps, tokenOf(req.params.token), { lang: req.lang, record: false })),
  });

  r.route({
    ...routeOf(CheckoutApi.pay, { rateLimit: { max: 30, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: 'Pay the order through the sandbox acquirer (form: method = brand code, cardNumber for cards). Test amounts decide the result (docs/sandbox.md).',
      params: inputOf(CheckoutApi.pay)(tokenParam),
      body: inputOf(CheckoutApi.pay)(checkoutPaySchema),
      response: { 200: envelope(answerOf(CheckoutApi.pay)(checkoutPayResultSchema)) },
    },
    handler: async (req) => ok(await payCheckout(deps, tokenOf(req.params.token), req.body)),
  });
}
