import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  ReportApi,
  type AnyEndpoint,
  billRowSchema,
  exportQueuedSchema,
  reportExportQuerySchema,
  reportQuerySchema,
  reserveRowSchema,
  summaryOldRowSchema,
  summaryRowSchema,
  transferRowSchema,
  type ReportExportQuery,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { scopeFor, userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { t } from '../../lib/messages';
import { disposition, enqueueExport, streamExport } from '../export';
import { REPORTS, type ReportDef, type ReportKind } from './report.defs';
import { exportKind, exportMode, listReport, registerReportExports } from './report.service';

/** Sends the export as a file, or queues it (large range) and answers the queued file's id. */
async function sendReportExport(deps: Deps, def: ReportDef, req: FastifyRequest, reply: FastifyReply, q: ReportExportQuery) {
  const { format, mode, ...params } = q;
  const u = userOf(req);
  const scope = scopeFor(req, params.merId);
  if ((await exportMode(deps, def, scope, q, req.lang)) === 'queue') {
    const row = await enqueueExport(deps, {
      userId: u.id,
      merId: u.merId,
      scope,
      permissions: u.permissions,
      kind: exportKind(def),
      params,
      format,
      lang: req.lang,
      tzOffset: req.tzOffset,
    });
    return { code: 0, msg: t(req.lang, 'reportExportQueued'), data: { id: row.id, status: row.status } };
  }
  void mode;
  const out = await streamExport(deps, {
    kind: exportKind(def),
    params,
    format,
    lang: req.lang,
    tzOffset: req.tzOffset,
    scope,
    userId: u.id,
    meta: { ip: req.ip, userAgent: req.headers['user-agent'] },
  });
  reply.header('Content-Type', out.contentType);
  reply.header('Content-Disposition', disposition(out.fileName));
  reply.header('Cache-Control', 'no-store');
  return reply.send(out.stream);
}

const EXPORT_DOC =
  'A file (XLSX or CSV) in the response for a range of up to 31 days and 20,000 rows; a longer range (or mode=queue) is queued and answers {id, status} — the file then appears in /report/file.';

/**
 * The reports (spec §2, §7): bill, transfer/settlement, daily summary by payment brand (new) and
 * the original summary (old), reserve release. Permission and merchant scope on every call.
 */
export function reportRoutes(app: FastifyInstance, deps: Deps) {
  registerReportExports();
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** A list and its export, registered from their descriptors; the call site ties the schemas to them (inputOf, answerOf). */
  const pair = (
    kind: ReportKind,
    list: { endpoint: AnyEndpoint; query: typeof reportQuerySchema; page: z.ZodTypeAny },
    exp: { endpoint: AnyEndpoint; query: typeof reportExportQuerySchema },
    summary: string,
  ) => {
    const def = REPORTS[kind];
    r.route({
      ...routeOf(list.endpoint),
      schema: { tags: ['report'], summary, querystring: list.query, response: { 200: envelope(list.page) } },
      handler: async (req) => ok(await listReport(deps, def, scopeFor(req, req.query.merId), req.query, req.lang)),
    });
    r.route({
      ...routeOf(exp.endpoint),
      schema: { tags: ['report'], summary: `${summary}: export`, description: EXPORT_DOC, querystring: exp.query, response: { 200: envelope(exportQueuedSchema) } },
      handler: async (req, reply) => sendReportExport(deps, def, req, reply, req.query),
    });
  };
  const listOf = (endpoint: AnyEndpoint, query: typeof reportQuerySchema, page: z.ZodTypeAny) => ({ endpoint, query, page });
  const exportOf = (endpoint: AnyEndpoint, query: typeof reportExportQuerySchema) => ({ endpoint, query });
  const { billList: bl, billExport: bx, transferList: tl, transferExport: tx, txnNewList: nl, txnNewExport: nx, txnList: ol, txnExport: ox, reserveList: rl, reserveExport: rx } = ReportApi;

  pair(
    'bill',
    listOf(bl, inputOf(bl)(reportQuerySchema), answerOf(bl)(pageOf(billRowSchema))),
    exportOf(bx, inputOf(bx)(reportExportQuerySchema)),
    'Bill report: one row per settlement date, merchant, business line and settlement currency (beginDate/endDate = settlement dates)',
  );
  pair(
    'transfer',
    listOf(tl, inputOf(tl)(reportQuerySchema), answerOf(tl)(pageOf(transferRowSchema))),
    exportOf(tx, inputOf(tx)(reportExportQuerySchema)),
    'Settlement/transfer report (settlement range required; remitBeginDate/remitEndDate optional)',
  );
  pair(
    'summary',
    listOf(nl, inputOf(nl)(reportQuerySchema), answerOf(nl)(pageOf(summaryRowSchema))),
    exportOf(nx, inputOf(nx)(reportExportQuerySchema)),
    'Daily summary by payment brand (upgraded): per settlement date, merchant, acquirer, brand, type and currency; gwTranType, paymentBrand (comma-joined) filters',
  );
  pair(
    'summaryOld',
    listOf(ol, inputOf(ol)(reportQuerySchema), answerOf(ol)(pageOf(summaryOldRowSchema))),
    exportOf(ox, inputOf(ox)(reportExportQuerySchema)),
    'Daily summary, original version: the same query without the brand filter, summed over brands, no brand column',
  );
  pair(
    'reserve',
    listOf(rl, inputOf(rl)(reportQuerySchema), answerOf(rl)(pageOf(reserveRowSchema))),
    exportOf(rx, inputOf(rx)(reportExportQuerySchema)),
    'Reserve release report: beginDate/endDate (settlement), releaseBeginDate/releaseEndDate, remitBeginDate/remitEndDate (transfer date); at least one range',
  );
}
