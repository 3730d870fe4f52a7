import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  exportQueuedSchema,
  queryResultQuerySchema,
  refundBodySchema,
  refundResultSchema,
  txnDetailSchema,
  txnExportQuerySchema,
  txnFilterSchema,
  txnPageSchema,
  txnQuerySchema,
  txnRowSchema,
  txnTotalsSchema,
  takingsQuerySchema,
  takingsSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { scopeFor, userOf } from '../../plugins/auth';
import { fastSerializerCompiler } from '../../lib/fast-serializer';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { TxnApi } from '@portal/contract';
import { enqueueExport, disposition, streamExport } from '../export';
import { listTransactions, txnDetail, txnTakings, txnTotals } from './txn.service';
import { refund } from './refund.service';
import { queryResult } from './query-result.service';
import { parseTxnExportParams, registerTxnExports } from './txn.exports';
import { parseZone } from './time';

const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** The zone an export's times are shown in: the list's time-zone selector (hours), else the browser's offset. */
function zoneOf(req: FastifyRequest, params: Record<string, unknown>): number {
  const z = parseZone(typeof params.timeZone === 'string' ? params.timeZone : undefined, req.tzOffset);
  return typeof z === 'number' ? z : req.tzOffset;
}

/** Sends a streamed export as the response (a file: non-JSON, named by Content-Disposition). */
export async function sendExport(deps: Deps, req: FastifyRequest, reply: FastifyReply, kind: string, params: Record<string, unknown>, format: 'xlsx' | 'csv', scope: string[]) {
  const u = userOf(req);
  const out = await streamExport(deps, { kind, params, format, lang: req.lang, tzOffset: zoneOf(req, params), scope, userId: u.id, meta: { ip: req.ip, userAgent: req.headers['user-agent'] } });
  reply.header('Content-Type', out.contentType);
  reply.header('Content-Disposition', disposition(out.fileName));
  reply.header('Cache-Control', 'no-store');
  return reply.send(out.stream);
}

/** Queues an export in the caller's name; the file appears in /report/file. */
export async function queueExport(deps: Deps, req: FastifyRequest, kind: string, params: unknown, format: 'xlsx' | 'csv', scope: string[]) {
  const u = userOf(req);
  const row = await enqueueExport(deps, {
    userId: u.id,
    merId: u.merId,
    scope,
    permissions: u.permissions,
    kind,
    params,
    format,
    lang: req.lang,
    tzOffset: zoneOf(req, params as Record<string, unknown>),
  });
  return ok({ id: row.id, status: row.status });
}

export function txnRoutes(app: FastifyInstance, deps: Deps) {
  registerTxnExports();
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(TxnApi.list),
    schema: {
      tags: ['txn'],
      summary: "Transactions of the caller's merchants (spec §3 query; times in the platform zone; page 0-based)",
      description:
        'totalElements is exact up to 1,000 matches; past that totalExact is false and totalElements is 1,000 ("more than 1,000") unless exactTotal=true asks for the exact count. Pages reach 10,000 rows deep (page × size < 10,000); deeper pages answer 400. after = the id of the last row of page − 1 (the pager\'s Next) reads the page by keyset from that row: the same rows, as cheap as page 1 however deep.',
      querystring: inputOf(TxnApi.list)(txnQuerySchema),
      response: { 200: envelope(answerOf(TxnApi.list)(txnPageSchema)) },
    },
    // Every list screen's load: serialized by fast-json-stringify from the same schema (decision 054).
    serializerCompiler: fastSerializerCompiler,
    handler: async (req) => ok(await listTransactions(deps, scopeFor(req, req.query.merId), req.query)),
  });

  r.route({
    ...routeOf(TxnApi.totals),
    schema: {
      tags: ['txn'],
      summary: "Per-currency totals of the transactions matching the list's filter",
      querystring: inputOf(TxnApi.totals)(txnFilterSchema),
      response: { 200: envelope(answerOf(TxnApi.totals)(txnTotalsSchema)) },
    },
    handler: async (req) => ok(await txnTotals(deps, scopeFor(req, req.query.merId), req.query)),
  });

  r.route({
    ...routeOf(TxnApi.takings),
    schema: {
      tags: ['txn'],
      summary: 'Takings of a period per currency, store and payment brand (the phone home screen)',
      description:
        "Successful purchases less successful refunds and voids in [beginDate, endDate] (platform zone, both required, at most three months); count is the number of successful purchases. Rows of the caller's merchants only (merId narrows to one of them).",
      querystring: inputOf(TxnApi.takings)(takingsQuerySchema),
      response: { 200: envelope(answerOf(TxnApi.takings)(takingsSchema)) },
    },
    handler: async (req, reply) => {
      // Signed-in figures: never kept by a cache (the phone screen's service worker keeps none either).
      reply.header('Cache-Control', 'private, no-store');
      return ok(await txnTakings(deps, scopeFor(req, req.query.merId), req.query));
    },
  });

  r.route({
    ...routeOf(TxnApi.queryResult),
    schema: {
      tags: ['txn'],
      summary: "Ask the acquirer for a processing transaction's result and update it",
      querystring: inputOf(TxnApi.queryResult)(queryResultQuerySchema),
      response: { 200: envelope(answerOf(TxnApi.queryResult)(txnRowSchema)) },
    },
    handler: async (req) => ok(await queryResult(deps, userOf(req).scope, req.query.id)),
  });

  r.route({
    ...routeOf(TxnApi.export),
    schema: { tags: ['txn'], summary: 'The filtered transactions as an XLSX or CSV file, streamed (3-month period rule)', querystring: inputOf(TxnApi.export)(txnExportQuerySchema) },
    handler: async (req, reply) => {
      const { format, ...params } = req.query;
      parseTxnExportParams(params);
      return sendExport(deps, req, reply, 'txn', params, format, scopeFor(req, params.merId));
    },
  });

  r.route({
    ...routeOf(TxnApi.exportBack),
    schema: {
      tags: ['txn'],
      summary: 'Queue the transactions export; the file appears in /report/file',
      querystring: inputOf(TxnApi.exportBack)(txnExportQuerySchema),
      response: { 200: envelope(answerOf(TxnApi.exportBack)(exportQueuedSchema)) },
    },
    handler: async (req) => {
      const { format, ...params } = req.query;
      return queueExport(deps, req, 'txn', params, format, scopeFor(req, params.merId));
    },
  });

  r.route({
    ...routeOf(TxnApi.refund, { rateLimit: { max: 120, timeWindow: '1 minute' } }),
    schema: {
      tags: ['txn'],
      summary: 'Refund a purchase (form: id = gateway transaction id, amount, txnschema, requestKey). Needs a password check within 5 minutes.',
      description:
        'data.code 0 = refunded (or processing); 1 not refundable, 2 over the refundable amount, 3 declined by the acquirer, 4 request key reused with another amount. A repeat with the same requestKey returns the first result.',
      body: inputOf(TxnApi.refund)(refundBodySchema),
      response: { 200: envelope(answerOf(TxnApi.refund)(refundResultSchema)) },
    },
    handler: async (req) => ok(await refund(deps, userOf(req), req.lang, req.body, { ip: req.ip, userAgent: req.headers['user-agent'] })),
  });

  r.route({
    ...routeOf(TxnApi.detail),
    schema: {
      tags: ['txn'],
      summary: 'Transaction detail with associated orders and shipping info (card number masked)',
      params: inputOf(TxnApi.detail)(idParam),
      response: { 200: envelope(answerOf(TxnApi.detail)(txnDetailSchema)) },
    },
    handler: async (req) => ok(await txnDetail(deps, userOf(req).scope, req.params.id)),
  });
}
