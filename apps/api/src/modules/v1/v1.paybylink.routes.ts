import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, payByLinkFormSchema, payByLinkOrderSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { keyAsUser } from '../apikey';
import { linkBaseOf, toOrder } from '../paybylink';
import { closeOrder, createOrder, loadOrder, updateOrder, updateOrderMetadata } from '../paybylink';
import { V1Error } from './v1.errors';
import { keyOf } from './v1.txn.routes';
import { named } from './v1.registry';
import { timeOfVersion } from './v1.version';
import { METADATA_MAX_KEYS, metadataInput, metadataSchema, metadataToStore } from './v1.metadata';
import { mergeMetadata, type PblDbRow } from '../paybylink';

/** A pay-by-link order as /v1 answers it (the portal's order shape, and its metadata). */
const payLinkSchema = named(
  payByLinkOrderSchema.extend({ metadata: metadataSchema }),
  'PayLink',
  "A pay-by-link order and its checkout link. Its times (createTime, expireTime, paidTime, closeTime): from Portal-Version 2026-12-01 ISO-8601 UTC (2026-12-01T08:30:00.000Z); in 2026-06-01 the platform's zone as YYYY-MM-DD HH:mm:ss",
);

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
/** The portal's order form (same fields and rules; values as strings), without the bill upload (portal only). */
const orderBody = payByLinkFormSchema.omit({ id: true, attachment: true, fileName: true }).strict();
/** What an open order may change (the portal's edit dialog): amounts, quantity, validity, the buyer e-mail. */
const updateBody = payByLinkFormSchema
  .pick({ goodsPrice: true, goodsQuantity: true, logFee: true, totalAmount: true, validDays: true, sendEmailChecked: true })
  .extend({ metadata: metadataInput.optional().describe('merged into the stored metadata: a key with an empty value is removed; at most 50 keys after the merge') })
  .strict();
const createBody = orderBody.extend({
  metadata: metadataInput.optional(),
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
  // Times as the request's version answers them (2026-12-01: ISO-8601 UTC; 2026-06-01: the zone's format).
  const shape = (req: FastifyRequest, o: PblDbRow) => {
    const at = timeOfVersion(req, tz);
    return {
      ...toOrder(o, tz, linkBaseOf(deps)),
      createTime: at(o.created_at),
      expireTime: at(o.expires_at),
      paidTime: o.paid_at ? at(o.paid_at) : null,
      closeTime: o.closed_at ? at(o.closed_at) : null,
      metadata: o.metadata ?? {},
    };
  };
  const view = async (req: FastifyRequest, by: { id?: number; orderNo?: string }) => shape(req, await loadOrder(deps, by, keyOf(req).scope));

  r.post('/payment-links', {
    config: { v1: { permission: Perm.payByLinkCreate, tag: 'payment-links', errors: [409], idempotent: true } },
    schema: {
      tags: hidden,
      operationId: 'createPaymentLink',
      summary: "Create a pay-by-link order (the portal form's fields, as strings); 201 with the order and its link",
      description:
        'Fields: reconId, orderCurrency, totalAmount, goodsName, goodsPrice, goodsQuantity, logFee, remarks, buyerEmail, sendEmailChecked ("true" e-mails the buyer), validDays. The first invalid field is param; the rules are the portal\'s.',
      body: createBody,
      response: { 201: payLinkSchema },
    },
    handler: async (req, reply) => {
      const key = keyOf(req);
      const { merchant_id: asked, metadata, ...form } = req.body;
      const merId = asked ?? (key.scope.includes(key.ownerMerId) ? key.ownerMerId : key.scope.length === 1 ? key.scope[0] : undefined);
      if (!merId) throw new V1Error(400, 'invalid_request_error', 'parameter_missing', 'badRequest', { detail: 'merchant_id' }, 'merchant_id');
      if (!key.scope.includes(merId)) throw new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'merchant_id');
      const made = await createOrder(deps, { ...keyAsUser(key, deps.clock.now()), merId }, form, { ...ctxOf(req), metadata: metadataToStore(metadata) });
      reply.status(201);
      return view(req, { id: made.id });
    },
  });

  r.get('/payment-links/:id', {
    config: { v1: { permission: Perm.payByLinkDetail, tag: 'payment-links' } },
    schema: { tags: hidden, operationId: 'getPaymentLink', summary: 'One pay-by-link order', params: idParams, response: { 200: payLinkSchema } },
    handler: async (req) => view(req, { id: req.params.id }),
  });

  r.post('/payment-links/:id', {
    config: { v1: { permission: Perm.payByLinkUpdate, tag: 'payment-links', errors: [409], idempotent: true } },
    schema: {
      tags: hidden,
      operationId: 'updatePaymentLink',
      summary:
        'Update an open, unpaid order: goodsPrice, goodsQuantity, logFee, totalAmount, validDays, sendEmailChecked, metadata; 409 order_status_changed when it was paid, is processing or closed (metadata alone: in any state)',
      params: idParams,
      body: updateBody,
      response: { 200: payLinkSchema },
    },
    handler: async (req) => {
      const key = keyOf(req);
      const { metadata, ...form } = req.body;
      if (metadata) {
        // The merged metadata may hold at most 50 keys (checked before anything changes).
        const before = await loadOrder(deps, { id: req.params.id }, key.scope);
        if (Object.keys(mergeMetadata(before.metadata, metadata)).length > METADATA_MAX_KEYS) {
          throw new V1Error(400, 'invalid_request_error', 'parameter_invalid', 'badRequest', { detail: `metadata: at most ${METADATA_MAX_KEYS} keys` }, 'metadata');
        }
      }
      const user = keyAsUser(key, deps.clock.now());
      // metadata alone changes in any state; with other fields, only while the order is open and unpaid.
      const o =
        Object.keys(form).length === 0 && metadata
          ? await updateOrderMetadata(deps, user, req.params.id, metadata, ctxOf(req))
          : await guarded(() => updateOrder(deps, user, { ...form, id: String(req.params.id) }, { ...ctxOf(req), metadata }));
      return shape(req, o);
    },
  });

  r.post('/payment-links/:id/close', {
    config: { v1: { permission: Perm.payByLinkClose, tag: 'payment-links', errors: [409], idempotent: true } },
    schema: {
      tags: hidden,
      operationId: 'closePaymentLink',
      summary: 'Close an open, unpaid order; 409 order_status_changed when it was paid, is processing or closed',
      params: idParams,
      response: { 200: payLinkSchema },
    },
    handler: async (req) => {
      const key = keyOf(req);
      const res = await guarded(() => closeOrder(deps, keyAsUser(key, deps.clock.now()), req.params.id, req.ip));
      if (res !== '00') throw new V1Error(409, 'invalid_request_error', 'order_status_changed', 'pblOrderStatusChanged');
      return view(req, { id: req.params.id });
    },
  });
}
