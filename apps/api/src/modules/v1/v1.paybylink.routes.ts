import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, payByLinkFormSchema, payByLinkOrderSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { keyAsUser } from '../apikey/apikey.service';
import { linkBaseOf, toOrder } from '../paybylink/paybylink.mapper';
import { closeOrder, createOrder, loadOrder, updateOrder } from '../paybylink/paybylink.service';
import { V1Error } from './v1.errors';
import { keyOf } from './v1.txn.routes';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
/** The portal's order form (same fields and rules; values as strings), without the bill upload (portal only). */
const orderBody = payByLinkFormSchema.omit({ id: true, attachment: true, fileName: true }).strict();
/** What an open order may change (the portal's edit dialog): amounts, quantity, validity, the buyer e-mail. */
const updateBody = payByLinkFormSchema.pick({ goodsPrice: true, goodsQuantity: true, logFee: true, totalAmount: true, validDays: true, sendEmailChecked: true }).strict();
const createBody = orderBody.extend({
  merchant_id: z
    .string()
    .regex(/^\d{15}$/)
    .optional()
    .describe("the merchant the order is for (one of the key's); default: the key's own merchant, or its only one"),
});

/** An order whose state changed under the request (paid, processing, closed): 409 in the /v1 model. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof AppError && e.key === 'pblOrderStatusChanged') throw new V1Error(409, 'invalid_request_error', 'order_status_changed', 'pblOrderStatusChanged');
    throw e;
  }
}

/** Pay-by-link orders through /v1: the pay-by-link service, as the portal's screens use it. */
export function v1PayByLinkRoutes(f: FastifyInstance, deps: Deps) {
  const r = f.withTypeProvider<ZodTypeProvider>();
  const hidden = ['X-HIDDEN'];
  const tz = deps.config.platformTz;
  const ctxOf = (req: FastifyRequest) => ({ lang: keyOf(req).lang, linkBase: linkBaseOf(deps), ip: req.ip });
  const view = async (req: FastifyRequest, by: { id?: number; orderNo?: string }) => toOrder(await loadOrder(deps, by, keyOf(req).scope), tz, linkBaseOf(deps));

  r.post('/payment-links', {
    config: { v1: { permission: Perm.payByLinkCreate, tag: 'payment-links' } },
    schema: {
      tags: hidden,
      operationId: 'createPaymentLink',
      summary: "Create a pay-by-link order (the portal form's fields, as strings); 201 with the order and its link",
      description:
        'Fields: reconId, orderCurrency, totalAmount, goodsName, goodsPrice, goodsQuantity, logFee, remarks, buyerEmail, sendEmailChecked ("true" e-mails the buyer), validDays. The first invalid field is param; the rules are the portal\'s.',
      body: createBody,
      response: { 201: payByLinkOrderSchema },
    },
    handler: async (req, reply) => {
      const key = keyOf(req);
      const { merchant_id: asked, ...form } = req.body;
      const merId = asked ?? (key.scope.includes(key.ownerMerId) ? key.ownerMerId : key.scope.length === 1 ? key.scope[0] : undefined);
      if (!merId) throw new V1Error(400, 'invalid_request_error', 'parameter_missing', 'badRequest', { detail: 'merchant_id' }, 'merchant_id');
      if (!key.scope.includes(merId)) throw new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'merchant_id');
      const made = await createOrder(deps, { ...keyAsUser(key, deps.clock.now()), merId }, form, ctxOf(req));
      reply.status(201);
      return view(req, { id: made.id });
    },
  });

  r.get('/payment-links/:id', {
    config: { v1: { permission: Perm.payByLinkDetail, tag: 'payment-links' } },
    schema: { tags: hidden, operationId: 'getPaymentLink', summary: 'One pay-by-link order', params: idParams, response: { 200: payByLinkOrderSchema } },
    handler: async (req) => view(req, { id: req.params.id }),
  });

  r.post('/payment-links/:id', {
    config: { v1: { permission: Perm.payByLinkUpdate, tag: 'payment-links', errors: [409] } },
    schema: {
      tags: hidden,
      operationId: 'updatePaymentLink',
      summary: 'Update an open, unpaid order: goodsPrice, goodsQuantity, logFee, totalAmount, validDays, sendEmailChecked; 409 order_status_changed when it was paid, is processing or closed',
      params: idParams,
      body: updateBody,
      response: { 200: payByLinkOrderSchema },
    },
    handler: async (req) => {
      const key = keyOf(req);
      const o = await guarded(() => updateOrder(deps, keyAsUser(key, deps.clock.now()), { ...req.body, id: String(req.params.id) }, ctxOf(req)));
      return toOrder(o, tz, linkBaseOf(deps));
    },
  });

  r.post('/payment-links/:id/close', {
    config: { v1: { permission: Perm.payByLinkClose, tag: 'payment-links', errors: [409] } },
    schema: {
      tags: hidden,
      operationId: 'closePaymentLink',
      summary: 'Close an open, unpaid order; 409 order_status_changed when it was paid, is processing or closed',
      params: idParams,
      response: { 200: payByLinkOrderSchema },
    },
    handler: async (req) => {
      const key = keyOf(req);
      const res = await guarded(() => closeOrder(deps, keyAsUser(key, deps.clock.now()), req.params.id, req.ip));
      if (res !== '00') throw new V1Error(409, 'invalid_request_error', 'order_status_changed', 'pblOrderStatusChanged');
      return view(req, { id: req.params.id });
    },
  });
}
