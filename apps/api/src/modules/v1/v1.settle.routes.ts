import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, reportQuerySchema, settleBatchQuerySchema, settleBatchRowSchema, transferRowSchema, type SettleBatchRow, type TransferRow } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { settleBatches } from '../txn';
import { transferDef } from '../report';
import { listReport } from '../report';
import { V1Error } from './v1.errors';
import { keyOf } from './v1.txn.routes';
import { named } from './v1.registry';
import { expandQuery, expandsOf } from './v1.expand';
import type { KeyCaller } from '../apikey';

/** /v1 pages of settlements and transfers: page 0-based, size 10–100 (the summary's words, enforced). */
const v1Page = { page: z.coerce.number().int().min(0).default(0), size: z.coerce.number().int().min(10).max(100).default(10) };
/** Settlement batches: both settlement dates required (as the service needs them); strict. */
const settlementsQuery = settleBatchQuerySchema.extend({ ...v1Page, 'expand[]': expandQuery(['data.transfer', 'transfer']) }).strict();
/** Transfers: the settlement dates beginDate–endDate are required (at most three months); the portal's screen fields are not parameters here; strict. */
const {
  timeZone: _tz,
  userName: _un,
  gwTranType: _gt,
  paymentBrand: _pb,
  releaseBeginDate: _rb,
  releaseEndDate: _re,
  transferBeginDate: _tb,
  transferEndDate: _te,
  ...transferShape
} = reportQuerySchema.shape;
const transfersQuery = z.strictObject({
  ...transferShape,
  ...v1Page,
  beginDate: z
    .string()
    .regex(/^\d{4}-\d\d-\d\d$/)
    .describe('first settlement date (YYYY-MM-DD), required'),
  endDate: z
    .string()
    .regex(/^\d{4}-\d\d-\d\d$/)
    .describe('last settlement date (YYYY-MM-DD), required; at most three months after beginDate'),
});
const settlementList = named(z.object({ data: z.array(z.lazy(() => settlementSchema)), total: z.number().int() }), 'SettlementList');
const transferList = named(z.object({ data: z.array(z.lazy(() => transferSchema)), total: z.number().int() }), 'TransferList');

const ID_RE = /^(\d{4}-\d\d-\d\d)\.(\d{15})\.([A-Z0-9_]{1,20})\.([A-Z]{3})$/;
/** A batch's id in /v1: settlement date, merchant, business line and currency, dot-joined. */
const idOf = (b: SettleBatchRow) => `${b.txnSetDate}.${b.clientid}.${b.reconBusiness}.${b.merTxnSet}`;
/** A transfer's id in /v1: its settlement date, merchant, business line and currency, dot-joined. */
const transferIdOf = (t: TransferRow) => `${t.txnSetDate}.${t.clientid}.${t.reconBusiness}.${t.merTxnSet}`;
const transferSchema = named(
  transferRowSchema.extend({ id: z.string().describe('date.merchant.businessLine.currency') }),
  'Transfer',
  'What a settlement batch paid out: settled, released, charged, transferred, and the remittance date',
);
const settlementSchema = named(
  settleBatchRowSchema.extend({
    id: z.string().describe('date.merchant.businessLine.currency'),
    transfer: z
      .union([z.string(), transferSchema])
      .describe("the batch's transfer: its id (GET /v1/transfers/{id}; the same date.merchant.businessLine.currency), or with expand[]=transfer the Transfer itself"),
  }),
  'Settlement',
  'A settlement batch: one settlement date, merchant, business line and currency; transfer is expandable (GET /v1/settlements/{id}?expand[]=transfer)',
);
const SETTLEMENT_EXPANDS = ['transfer'] as const;
/** On the list, Stripe's form `data.transfer` (each batch's transfer), or the object's own `transfer`. */
const SETTLEMENT_LIST_EXPANDS = ['data.transfer', 'transfer'] as const;
/** The transfer inline is the Transfer report's row: expanding it needs that permission too. */
const mayExpandTransfer = (key: KeyCaller) => {
  if (!key.permissions.includes(Perm.reportTransfer)) throw new V1Error(403, 'permission_error', 'permission_missing', 'v1Forbidden', { perm: Perm.reportTransfer }, 'expand[]');
};
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
  /** One transfer of the key's merchants by its id (date.merchant.businessLine.currency), or null. */
  const transferOf = async (key: KeyCaller, id: string) => {
    const m = ID_RE.exec(id);
    if (!m) return null;
    const [, date, merId, busLine, setCur] = m;
    const out = await listReport(deps, transferDef, narrowed(key.scope, merId), { beginDate: date, endDate: date, page: 0, size: 100 } as never, key.lang);
    const t = (out.content as TransferRow[]).find((x) => x.clientid === merId && x.reconBusiness === busLine && x.merTxnSet === setCur);
    return t ? { ...t, id: transferIdOf(t) } : null;
  };

  /**
   * The transfers of a page of batches, by id: the Transfer report over the page's settlement dates
   * and merchants, read in pages of 100 until every batch's transfer is found or the rows end.
   */
  const transfersOf = async (key: KeyCaller, batches: SettleBatchRow[]) => {
    const found = new Map<string, TransferRow & { id: string }>();
    if (!batches.length) return found;
    const wanted = new Set(batches.map(idOf));
    const dates = batches.map((b) => b.txnSetDate).sort();
    const merchants = [...new Set(batches.map((b) => b.clientid))].filter((m) => key.scope.includes(m));
    for (let page = 0; page < 50 && found.size < wanted.size; page++) {
      const out = await listReport(deps, transferDef, merchants, { beginDate: dates[0], endDate: dates[dates.length - 1], page, size: 100 } as never, key.lang);
      for (const t of out.content as TransferRow[]) if (wanted.has(transferIdOf(t))) found.set(transferIdOf(t), { ...t, id: transferIdOf(t) });
      if ((page + 1) * 100 >= out.totalElements) break;
    }
    return found;
  };

  r.get('/settlements', {
    config: { v1: { permission: Perm.settleDetail, tag: 'settlements' } },
    schema: {
      tags: hidden,
      operationId: 'listSettlements',
      summary:
        'Settlement batches between two settlement dates (beginDate, endDate required), newest first (page 0-based, size 10–100); filters merId, busLine, setCur, remitDate; expand[]=data.transfer: each transfer inline (needs report:transfer)',
      querystring: settlementsQuery,
      response: { 200: settlementList },
    },
    handler: async (req) => {
      const key = keyOf(req);
      const { 'expand[]': asked, ...q } = req.query;
      const expand = expandsOf(asked, SETTLEMENT_LIST_EXPANDS);
      if (expand.size) mayExpandTransfer(key);
      const out = await settleBatches(deps.db.read, key.scope, q);
      const transfers = expand.size ? await transfersOf(key, out.content) : new Map<string, TransferRow & { id: string }>();
      return { data: out.content.map((b) => ({ ...b, id: idOf(b), transfer: transfers.get(idOf(b)) ?? idOf(b) })), total: out.totalElements };
    },
  });

  r.get('/settlements/:id', {
    config: { v1: { permission: Perm.settleDetail, tag: 'settlements' } },
    schema: {
      tags: hidden,
      operationId: 'getSettlement',
      summary: 'One settlement batch (expand[]=transfer: its transfer inline)',
      params: z.strictObject({ id: z.string().max(64) }),
      querystring: z.strictObject({ 'expand[]': expandQuery(SETTLEMENT_EXPANDS) }),
      response: { 200: settlementSchema },
    },
    handler: async (req) => {
      const expand = expandsOf(req.query['expand[]'], SETTLEMENT_EXPANDS);
      const m = ID_RE.exec(req.params.id);
      const missing = () => new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'id');
      if (!m) throw missing();
      const [, date, merId, busLine, setCur] = m;
      const out = await settleBatches(deps.db, keyOf(req).scope, { beginDate: date, endDate: date, merId, busLine, setCur, page: 0, size: 1 } as never);
      if (!out.content[0]) throw missing();
      const id = idOf(out.content[0]);
      if (expand.has('transfer')) mayExpandTransfer(keyOf(req));
      const transfer = expand.has('transfer') ? await transferOf(keyOf(req), id) : null;
      return { ...out.content[0], id, transfer: transfer ?? id };
    },
  });

  r.get('/transfers', {
    config: { v1: { permission: Perm.reportTransfer, tag: 'settlements' } },
    schema: {
      tags: hidden,
      operationId: 'listTransfers',
      summary:
        "Transfers (the portal's Transfer report): per settlement date, merchant, business line and currency, what was settled, released, charged and paid out, and the remittance date. Settlement dates beginDate–endDate required (at most three months); optional remittance dates remitBeginDate–remitEndDate, merId; page 0-based, size 10–100",
      querystring: transfersQuery,
      response: { 200: transferList },
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
      const t = await transferOf(keyOf(req), req.params.id);
      if (!t) throw new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'id');
      return t;
    },
  });
}
