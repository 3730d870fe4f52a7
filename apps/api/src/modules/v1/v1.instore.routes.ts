import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, payInStoreAddSchema, payInStoreRowSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { keyAsUser } from '../apikey';
import { linkBaseOf, payLink } from '../paybylink';
import type { PblDbRow } from '../paybylink';
import { createInStoreOrder, loadInStoreOrder, toPisRow } from '../store';
import { timeOfVersion } from './v1.version';
import { keyOf } from './v1.txn.routes';
import { named } from './v1.registry';
import { metadataInput, metadataSchema, metadataToStore } from './v1.metadata';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const inStoreOrderSchema = named(
  payInStoreRowSchema.extend({
    link: z.string().describe('the checkout link the dynamic QR shows'),
    expireTime: z.string(),
    paidTime: z.string().nullable(),
    closeTime: z.string().nullable(),
    closeReason: z.string().nullable(),
    txnId: z.number().nullable(),
    metadata: metadataSchema,
  }),
  'InStoreOrder',
  "An in-store order of one of the key's stores and the link its dynamic QR shows. Its times (createTime, expireTime, paidTime, closeTime): from Portal-Version 2026-12-01 ISO-8601 UTC (2026-12-01T08:30:00.000Z); in 2026-06-01 the platform's zone as YYYY-MM-DD HH:mm:ss",
);

/** In-store orders through /v1 (create with a dynamic QR link, get): the pay-in-store service. */
export function v1InStoreRoutes(f: FastifyInstance, deps: Deps) {
  const r = f.withTypeProvider<ZodTypeProvider>();
  const hidden = ['X-HIDDEN'];
  const tz = deps.config.platformTz;
  // Portal-Version 2026-12-01 (issue 50: one time format per object): every time ISO-8601 UTC;
  // 2026-06-01 keeps the platform zone's 'YYYY-MM-DD HH:mm:ss' it answered before.
  const view = (req: FastifyRequest, o: PblDbRow) => {
    const at = timeOfVersion(req, tz);
    const time = (d: Date | null) => (d ? at(d) : null);
    return {
      ...toPisRow(o, tz),
      createTime: at(o.created_at),
      link: payLink(linkBaseOf(deps), o.token),
      expireTime: at(o.expires_at),
      paidTime: time(o.paid_at),
      closeTime: time(o.closed_at),
      closeReason: o.close_reason,
      txnId: o.txn_id,
      metadata: o.metadata ?? {},
    };
  };
  const load = (req: FastifyRequest, id: number) => loadInStoreOrder(deps, { id }, keyOf(req).scope);

  r.post('/in-store-orders', {
    config: { v1: { permission: Perm.payInStoreCreate, tag: 'in-store-orders', errors: [409], idempotent: true } },
    schema: {
      tags: hidden,
      operationId: 'createInStoreOrder',
      summary: "Create an in-store order of one of the key's stores (storeId, orderCurrency, totalAmount, goodsName); 201 with the link its dynamic QR shows (30 minutes)",
      body: payInStoreAddSchema.extend({ metadata: metadataInput.optional() }).strict(),
      response: { 201: inStoreOrderSchema },
    },
    handler: async (req, reply) => {
      const key = keyOf(req);
      const { metadata, ...form } = req.body;
      const made = await createInStoreOrder(deps, keyAsUser(key, deps.clock.now()), form, { lang: key.lang, linkBase: linkBaseOf(deps), ip: req.ip, metadata: metadataToStore(metadata) });
      reply.status(201);
      return view(req, await load(req, made.id));
    },
  });

  r.get('/in-store-orders/:id', {
    config: { v1: { permission: Perm.payInStoreList, tag: 'in-store-orders' } },
    schema: { tags: hidden, operationId: 'getInStoreOrder', summary: 'One in-store order', params: idParams, response: { 200: inStoreOrderSchema } },
    handler: async (req) => view(req, await load(req, req.params.id)),
  });
}
