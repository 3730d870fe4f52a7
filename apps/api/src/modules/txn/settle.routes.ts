import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BEGIN_END,
  Code,
  TxnApi,
  blankToUndefined,
  blendResultSchema,
  exportQueuedSchema,
  isoDate,
  logisticsImportResultSchema,
  logisticsQuerySchema,
  logisticsRowSchema,
  refuseReversed,
  settleExportQuerySchema,
  settleQuerySchema,
  settleRowSchema,
  settleSumSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { scopeFor, userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { AppError } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import { t } from '../../lib/messages';
import { audit, AuditAction } from '../../lib/audit';
import { disposition, contentTypeOf } from '../export';
import { writeExport } from '../export';
import { settleList } from './settle.service';
import { importLogistics, logisticsList, logisticsTemplate } from './logistics.service';
import { manualBlend } from './blend.service';
import { CsvUnreadable, isSheetFile, readSheet, UPLOAD_MAX_BYTES } from './sheet.reader';
import { FILE_TITLES } from './txn.labels';
import { queueExport, sendExport } from './txn.routes';

/** The manual blend's optional settlement-date range (multipart fields). */
const blendRangeSchema = z.object({ beginDate: blankToUndefined(isoDate), endDate: blankToUndefined(isoDate) }).superRefine(refuseReversed(BEGIN_END));
import { PassThrough } from 'node:stream';

/** Reads a multipart upload: the file (XLSX or CSV, ≤ 5 MiB) and the text fields. */
async function readUpload(req: FastifyRequest): Promise<{ sheet: string[][]; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw new AppError(Code.BAD_REQUEST, 'uploadFileMissing', {}, 400);
  const fields: Record<string, string> = {};
  let file: { name: string; buf: Buffer } | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10 } })) {
      if (part.type === 'file') {
        if (!isSheetFile(part.filename)) {
          await part.toBuffer().catch(() => undefined);
          throw new AppError(Code.BAD_REQUEST, 'uploadFileType', {}, 400);
        }
        file = { name: part.filename, buf: await part.toBuffer() };
      } else fields[part.fieldname] = String(part.value ?? '');
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(Code.BAD_REQUEST, 'uploadFileTooLarge', {}, 400);
    throw err;
  }
  if (!file) throw new AppError(Code.BAD_REQUEST, 'uploadFileMissing', {}, 400);
  try {
    return { sheet: await readSheet(file.buf, file.name), fields };
  } catch (err) {
    if (err instanceof CsvUnreadable) throw new AppError(Code.BAD_REQUEST, 'uploadCsvUnreadable', { line: err.line, reason: err.message }, 400);
    throw new AppError(Code.BAD_REQUEST, 'uploadFileType', {}, 400);
  }
}

const multipartDoc = { consumes: ['multipart/form-data'] };

export function settleRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(TxnApi.settleList),
    schema: {
      tags: ['txn'],
      summary: 'Transactions behind a settlement row (settlement date in [beginDate, endDate]) with their sum',
      querystring: inputOf(TxnApi.settleList)(settleQuerySchema),
      response: { 200: envelope(answerOf(TxnApi.settleList)(pageOf(settleRowSchema).extend({ sum: settleSumSchema }))) },
    },
    handler: async (req) => ok(await settleList(deps, scopeFor(req, req.query.clientid), req.query)),
  });

  r.route({
    ...routeOf(TxnApi.settleExport),
    schema: { tags: ['txn'], summary: 'The settle list as an XLSX or CSV file, streamed', querystring: inputOf(TxnApi.settleExport)(settleExportQuerySchema) },
    handler: async (req, reply) => {
      const { format, ...params } = req.query;
      return sendExport(deps, req, reply, 'settle', params, format, scopeFor(req, params.clientid));
    },
  });

  r.route({
    ...routeOf(TxnApi.settleExportBack),
    schema: {
      tags: ['txn'],
      summary: 'Queue the settle list export; the file appears in /report/file',
      querystring: inputOf(TxnApi.settleExportBack)(settleExportQuerySchema),
      response: { 200: envelope(answerOf(TxnApi.settleExportBack)(exportQueuedSchema)) },
    },
    handler: async (req) => {
      const { format, ...params } = req.query;
      return queueExport(deps, req, 'settle', params, format, scopeFor(req, params.clientid));
    },
  });

  r.route({
    ...routeOf(TxnApi.logisticsList),
    schema: {
      tags: ['txn'],
      summary: "Shipping (logistics) records of the caller's merchants",
      querystring: inputOf(TxnApi.logisticsList)(logisticsQuerySchema),
      response: { 200: envelope(answerOf(TxnApi.logisticsList)(pageOf(logisticsRowSchema))) },
    },
    handler: async (req) => ok(await logisticsList(deps, scopeFor(req, req.query.merId), req.query)),
  });

  r.route({
    ...routeOf(TxnApi.logisticsTemplate),
    schema: {
      tags: ['txn'],
      summary: "The logistics import template (header in the caller's language, one example row)",
      querystring: inputOf(TxnApi.logisticsTemplate)(z.object({ format: z.enum(['xlsx', 'csv']).default('xlsx') })),
    },
    handler: async (req, reply) => {
      const { header, example } = logisticsTemplate(req.lang);
      const name = `${FILE_TITLES.logisticsTemplate[req.lang]}.${req.query.format}`;
      const stream = new PassThrough();
      const cols = header.map((label, i) => ({ key: String(i), label, type: 'text' as const, width: 20, value: (row: string[]) => row[i] }));
      void writeExport(
        req.query.format,
        stream,
        cols,
        0,
        FILE_TITLES.logisticsTemplate[req.lang],
        (async function* () {
          yield [example];
        })(),
      ).catch((e) => stream.destroy(e));
      reply.header('Content-Type', contentTypeOf(req.query.format));
      reply.header('Content-Disposition', disposition(name));
      return reply.send(stream);
    },
  });

  r.route({
    ...routeOf(TxnApi.uploadLogistics),
    schema: {
      tags: ['txn'],
      summary: 'Import shipping info (multipart file: XLSX/CSV with order number, shipment number, company, date, status). All rows or none.',
      ...multipartDoc,
      response: { 200: envelope(answerOf(TxnApi.uploadLogistics)(logisticsImportResultSchema)) },
    },
    handler: async (req) => {
      const { sheet } = await readUpload(req);
      const res = await importLogistics(deps, userOf(req).scope, sheet, req.lang);
      if (res.errors.length) return { code: 0, msg: t(req.lang, 'uploadRowsInvalid', { n: new Set(res.errors.map((e) => e.row)).size }), data: res };
      return ok(res);
    },
  });

  r.route({
    ...routeOf(TxnApi.manualBlend),
    schema: {
      tags: ['txn'],
      summary: 'Match a bank or channel statement (multipart file: order number, amount, currency[, merchant id]; fields beginDate, endDate) against settled transactions',
      ...multipartDoc,
      response: { 200: envelope(answerOf(TxnApi.manualBlend)(blendResultSchema)) },
    },
    handler: async (req) => {
      const { sheet, fields } = await readUpload(req);
      const range = parseInput(blendRangeSchema, { beginDate: fields.beginDate, endDate: fields.endDate });
      const u = userOf(req);
      const res = await manualBlend(deps, u.scope, sheet, req.lang, range);
      // The comparison changes no data; who ran it, on what, and what it found is kept in the audit log.
      await audit(deps.db, {
        action: AuditAction.manualBlend,
        userId: u.id,
        username: u.username,
        merId: u.merId,
        target: 'txn:manualBlend',
        detail: { range, total: res.total, matched: res.matched, missing: res.missing.length, differing: res.differing.length, notInStatement: res.notInStatement.length, errors: res.errors.length },
        ip: req.ip,
        userAgent: req.headers['user-agent'],
      });
      return ok(res);
    },
  });
}
