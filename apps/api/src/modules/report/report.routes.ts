import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
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

  const pair = (kind: ReportKind, list: string, exp: string, row: z.ZodTypeAny, summary: string) => {
    const def = REPORTS[kind];
    r.get(`/api/report/${list}`, {
      config: { permission: def.permission },
      schema: { tags: ['report'], summary, querystring: reportQuerySchema, response: { 200: envelope(pageOf(row)) } },
      handler: async (req) => ok(await listReport(deps, def, scopeFor(req, req.query.merId), req.query, req.lang)),
    });
    r.get(`/api/report/${exp}`, {
      config: { permission: def.permission },
      schema: { tags: ['report'], summary: `${summary}: export`, description: EXPORT_DOC, querystring: reportExportQuerySchema, response: { 200: envelope(exportQueuedSchema) } },
      handler: async (req, reply) => sendReportExport(deps, def, req, reply, req.query),
    });
  };

  pair('bill', 'bill/list', 'bill/export', billRowSchema, 'Bill report: one row per settlement date, merchant, business line and settlement currency (beginDate/endDate = settlement dates)');
  pair('transfer', 'transfer/list', 'transfer/export', transferRowSchema, 'Settlement/transfer report (settlement range required; remitBeginDate/remitEndDate optional)');
  pair(
    'summary',
    'txn/newList',
    'txn/newExport',
    summaryRowSchema,
    'Daily summary by payment brand (upgraded): per settlement date, merchant, acquirer, brand, type and currency; gwTranType, paymentBrand (comma-joined) filters',
  );
  pair('summaryOld', 'txn/list', 'txn/export', summaryOldRowSchema, 'Daily summary, original version: the same query without the brand filter, summed over brands, no brand column');
  pair(
    'reserve',
    'reserve/list',
    'reserve/export',
    reserveRowSchema,
    'Reserve release report: beginDate/endDate (settlement), releaseBeginDate/releaseEndDate, remitBeginDate/remitEndDate (transfer date); at least one range',
  );
}
