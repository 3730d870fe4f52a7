import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, payInStoreAddSchema, payInStoreRowSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { keyAsUser } from '../apikey/apikey.service';
import { linkBaseOf, payLink } from '../paybylink/paybylink.mapper';
import type { PblDbRow } from '../paybylink/paybylink.repo';
import { createInStoreOrder, loadInStoreOrder, toPisRow } from '../store/payinstore.service';
import { formatInZone } from '../txn/time';
import { keyOf } from './v1.txn.routes';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const inStoreOrderSchema = payInStoreRowSchema.extend({
  link: z.string().describe('the checkout link the dynamic QR shows'),
  expireTime: z.string(),
  paidTime: z.string().nullable(),
  closeTime: z.string().nullable(),
  closeReason: z.string().nullable(),
  txnId: z.number().nullable(),
});

/** In-store orders through /v1 (create with a dynamic QR link, get): the pay-in-store service. */
export function v1InStoreRoutes(f: FastifyInstance, deps: Deps) {
  const r = f.withTypeProvider<ZodTypeProvider>();
  const hidden = ['X-HIDDEN'];
  const tz = deps.config.platformTz;
  const time = (d: Date | null) => (d ? formatInZone(d, tz) : null);
  const view = (o: PblDbRow) => ({
    ...toPisRow(o, tz),
    link: payLink(linkBaseOf(deps), o.token),
    expireTime: formatInZone(o.expires_at, tz),
    paidTime: time(o.paid_at),
    closeTime: time(o.closed_at),
    closeReason: o.close_reason,
    txnId: o.txn_id,
  });
  const load = (req: FastifyRequest, id: number) => loadInStoreOrder(deps, { id }, keyOf(req).scope);

  r.post('/in-store-orders', {
    config: { v1: { permission: Perm.payInStoreCreate, tag: 'in-store-orders' } },
    schema: {
      tags: hidden,
      operationId: 'createInStoreOrder',
      summary: "Create an in-store order of one of the key's stores (storeId, orderCurrency, totalAmount, goodsName); 201 with the link its dynamic QR shows (30 minutes)",
      body: payInStoreAddSchema.strict(),
      response: { 201: inStoreOrderSchema },
    },
    handler: async (req, reply) => {
      const key = keyOf(req);
      const made = await createInStoreOrder(deps, keyAsUser(key, deps.clock.now()), req.body, { lang: key.lang, linkBase: linkBaseOf(deps), ip: req.ip });
      reply.status(201);
      return view(await load(req, made.id));
    },
  });

  r.get('/in-store-orders/:id', {
    config: { v1: { permission: Perm.payInStoreList, tag: 'in-store-orders' } },
    schema: { tags: hidden, operationId: 'getInStoreOrder', summary: 'One in-store order', params: idParams, response: { 200: inStoreOrderSchema } },
    handler: async (req) => view(await load(req, req.params.id)),
  });
}
