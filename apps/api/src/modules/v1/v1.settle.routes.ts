import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, settleBatchQuerySchema, settleBatchRowSchema, type SettleBatchRow } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { settleBatches } from '../txn/settle-detail.service';
import { V1Error } from './v1.errors';
import { keyOf } from './v1.txn.routes';

const ID_RE = /^(\d{4}-\d\d-\d\d)\.(\d{15})\.([A-Z0-9_]{1,20})\.([A-Z]{3})$/;
/** A batch's id in /v1: settlement date, merchant, business line and currency, dot-joined. */
const idOf = (b: SettleBatchRow) => `${b.txnSetDate}.${b.clientid}.${b.reconBusiness}.${b.merTxnSet}`;
const settlementSchema = settleBatchRowSchema.extend({ id: z.string().describe('date.merchant.businessLine.currency') });

/**
 * Settlements through /v1: the settlement batches of the portal's Settlement detail screen (one per
 * settlement date, merchant, business line and currency), with their fee, reserve and transfer
 * figures (remitDate, realTransAmount: the transfer). Its transactions: /v1/transactions with
 * the settlement's filters.
 */
export function v1SettleRoutes(f: FastifyInstance, deps: Deps) {
  const r = f.withTypeProvider<ZodTypeProvider>();
  const hidden = ['X-HIDDEN'];

  r.get('/settlements', {
    config: { v1: { permission: Perm.settleDetail, tag: 'settlements' } },
    schema: {
      tags: hidden,
      operationId: 'listSettlements',
      summary: 'Settlement batches between two settlement dates, newest first (page 0-based, size 10–100); filters merId, busLine, setCur, remitDate',
      querystring: settleBatchQuerySchema,
      response: { 200: z.object({ data: z.array(settlementSchema), total: z.number() }) },
    },
    handler: async (req) => {
      const out = await settleBatches(deps.db.read, keyOf(req).scope, req.query);
      return { data: out.content.map((b) => ({ ...b, id: idOf(b) })), total: out.totalElements };
    },
  });

  r.get('/settlements/:id', {
    config: { v1: { permission: Perm.settleDetail, tag: 'settlements' } },
    schema: { tags: hidden, operationId: 'getSettlement', summary: 'One settlement batch', params: z.strictObject({ id: z.string().max(64) }), response: { 200: settlementSchema } },
    handler: async (req) => {
      const m = ID_RE.exec(req.params.id);
      const missing = () => new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'id');
      if (!m) throw missing();
      const [, date, merId, busLine, setCur] = m;
      const out = await settleBatches(deps.db, keyOf(req).scope, { beginDate: date, endDate: date, merId, busLine, setCur, page: 0, size: 1 } as never);
      if (!out.content[0]) throw missing();
      return { ...out.content[0], id: idOf(out.content[0]) };
    },
  });
}
