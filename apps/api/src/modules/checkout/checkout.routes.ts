import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkoutOrderSchema, checkoutPayResultSchema, checkoutPaySchema, textInput } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { envelope, ok } from '../../lib/envelope';
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

  r.get('/api/checkout/:token', {
    config: { auth: 'public', rateLimit: { max: 120, timeWindow: '1 minute' } },
    schema: { tags, summary: 'The order behind a pay link: merchant, goods, amount, payment methods, last payment result', params: tokenParam, response: { 200: envelope(checkoutOrderSchema) } },
    handler: async (req) => ok(await checkoutView(deps, tokenOf(req.params.token), { lang: req.lang, record: true })),
  });

  r.get('/api/checkout/:token/status', {
    config: { auth: 'public', rateLimit: { max: 120, timeWindow: '1 minute' } },
    schema: { tags, summary: 'The same, without recording a visit (the page polls it while a payment is processing)', params: tokenParam, response: { 200: envelope(checkoutOrderSchema) } },
    handler: async (req) => ok(await checkoutView(deps, tokenOf(req.params.token), { lang: req.lang, record: false })),
  });

  r.post('/api/checkout/:token/pay', {
    config: { auth: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: 'Pay the order through the sandbox acquirer (form: method = brand code, cardNumber for cards). Test amounts decide the result (docs/sandbox.md).',
      params: tokenParam,
      body: checkoutPaySchema,
      response: { 200: envelope(checkoutPayResultSchema) },
    },
    handler: async (req) => ok(await payCheckout(deps, tokenOf(req.params.token), req.body)),
  });
}
