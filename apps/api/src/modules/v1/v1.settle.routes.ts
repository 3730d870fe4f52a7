import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, reportQuerySchema, settleBatchQuerySchema, settleBatchRowSchema, transferRowSchema, type SettleBatchRow, type TransferRow } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { settleBatches } from '../txn/settle-detail.service';
import { transferDef } from '../report/report.defs';
import { listReport } from '../report/report.service';
import { V1Error } from './v1.errors';
import { keyOf } from './v1.txn.routes';

const ID_RE = /^(\d{4}-\d\d-\d\d)\.(\d{15})\.([A-Z0-9_]{1,20})\.([A-Z]{3})$/;
/** A batch's id in /v1: settlement date, merchant, business line and currency, dot-joined. */
const idOf = (b: SettleBatchRow) => `${b.txnSetDate}.${b.clientid}.${b.reconBusiness}.${b.merTxnSet}`;
const settlementSchema = settleBatchRowSchema.extend({ id: z.string().describe('date.merchant.businessLine.currency') });
/** A transfer's id in /v1: its settlement date, merchant, business line and currency, dot-joined. */
const transferIdOf = (t: TransferRow) => `${t.txnSetDate}.${t.clientid}.${t.reconBusiness}.${t.merTxnSet}`;
const transferSchema = transferRowSchema.extend({ id: z.string().describe('date.merchant.businessLine.currency') });
/** The key's merchants, or the one asked for when the key may act for it (else none: nothing of another's). */
const narrowed = (scope: string[], merId?: string) => (merId ? (scope.includes(merId) ? [merId] : []) : scope);

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

  r.get('/transfers', {
    config: { v1: { permission: Perm.reportTransfer, tag: 'settlements' } },
    schema: {
      tags: hidden,
      operationId: 'listTransfers',
      summary:
        "Transfers (the portal's Transfer report): per settlement date, merchant, business line and currency, what was settled, released, charged and paid out, and the remittance date. Settlement dates beginDate–endDate (at most three months); optional remittance dates, merId; page 0-based, size 10–100",
      querystring: reportQuerySchema,
      response: { 200: z.object({ data: z.array(transferSchema), total: z.number() }) },
    },
    handler: async (req) => {
      const key = keyOf(req);
      const out = await listReport(deps, transferDef, narrowed(key.scope, req.query.merId), req.query, key.lang);
      return { data: (out.content as TransferRow[]).map((t) => ({ ...t, id: transferIdOf(t) })), total: out.totalElements };
    },
  });

  r.get('/transfers/:id', {
    config: { v1: { permission: Perm.reportTransfer, tag: 'settlements' } },
    schema: {
      tags: hidden,
      operationId: 'getTransfer',
      summary: 'One transfer (id: date.merchant.businessLine.currency)',
      params: z.strictObject({ id: z.string().max(64) }),
      response: { 200: transferSchema },
    },
    handler: async (req) => {
      const key = keyOf(req);
      const m = ID_RE.exec(req.params.id);
      const missing = () => new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'id');
      if (!m) throw missing();
      const [, date, merId, busLine, setCur] = m;
      const out = await listReport(deps, transferDef, narrowed(key.scope, merId), { beginDate: date, endDate: date, page: 0, size: 100 } as never, key.lang);
      const t = (out.content as TransferRow[]).find((x) => x.reconBusiness === busLine && x.merTxnSet === setCur);
      if (!t) throw missing();
      return { ...t, id: transferIdOf(t) };
    },
  });
}
