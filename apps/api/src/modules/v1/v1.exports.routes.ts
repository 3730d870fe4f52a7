import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_STATUSES, Perm } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { contentTypeOf, disposition, enqueueExport, exportDir, exportSource } from '../export';
import { keyExportFile, toExportFile, type ExportFileRow } from '../export';
import { registerTxnExports } from '../txn';
import { registerReportExports } from '../report';
import { zoneOffsetMinutes } from '../../lib/zone';
import { V1Error } from './v1.errors';
import { keyOf, narrowScope } from './v1.txn.routes';
import { named } from './v1.registry';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const exportSchema = named(
  z.object({
    id: z.number(),
    kind: z.string(),
    file_name: z.string(),
    format: z.enum(['xlsx', 'csv']),
    status: z.enum(EXPORT_STATUSES),
    progress: z.number().describe('0–100 while running'),
    row_count: z.number().nullable(),
    size_bytes: z.number().nullable(),
    error: z.string().nullable(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  }),
  'Export',
  'An export file asked through /v1: its status, then its download',
);
const KINDS = 'txn (transactions), settle (settlement transactions), paybylink, payinstore, report.bill, report.transfer, report.summary, report.reserve';

/**
 * Exports through /v1: ask for one (the export job runner writes it, as for the portal's
 * "export in the background"), poll it, download it. The key owns what it asked for
 * (api_key_export); the file's rows are the key's merchants, and the export source checks the key's
 * permission for its kind (txn:export, report:bill …).
 */
export function v1ExportRoutes(f: FastifyInstance, deps: Deps) {
  registerTxnExports();
  registerReportExports();
  const r = f.withTypeProvider<ZodTypeProvider>();
  const hidden = ['X-HIDDEN'];
  const view = (row: ExportFileRow) => {
    const x = toExportFile(row);
    return {
      id: x.id,
      kind: x.kind,
      file_name: x.fileName,
      format: x.format,
      status: x.status,
      progress: x.progress,
      row_count: x.rowCount,
      size_bytes: x.sizeBytes,
      error: x.error,
      created_at: x.createdAt,
      finished_at: x.finishedAt,
    };
  };
  const own = async (req: FastifyRequest, id: number) => {
    const file = await keyExportFile(deps.db, id, keyOf(req).keyId);
    if (!file) throw new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'id');
    return file;
  };

  r.post('/exports', {
    config: { v1: { permission: Perm.reportFile, tag: 'exports', errors: [409], idempotent: true } },
    schema: {
      tags: hidden,
      operationId: 'createExport',
      summary: 'Ask for an export file (written in the background); 202 with its status — poll it, then download it',
      description: `kind: ${KINDS}. params: that list's or report's filters, as on the portal (e.g. beginDate, endDate); merId narrows the file to one of the key's merchants (another merchant's id: a file without rows). The key needs the list's permission too (txn:export for txn and settle, report:bill for report.bill, …).`,
      body: z.strictObject({
        kind: z
          .string()
          .regex(/^[a-z]+(\.[a-zA-Z]+)?$/)
          .max(40),
        format: z.enum(['xlsx', 'csv']).default('csv'),
        params: z.record(z.string(), z.union([z.string().max(2000), z.number()])).default({}),
      }),
      response: { 202: exportSchema },
    },
    handler: async (req, reply) => {
      const key = keyOf(req);
      try {
        exportSource(req.body.kind);
      } catch {
        throw new V1Error(400, 'invalid_request_error', 'parameter_invalid', 'badRequest', { detail: `kind: ${KINDS}` }, 'kind');
      }
      const params = Object.fromEntries(Object.entries(req.body.params).map(([k, v]) => [k, String(v)]));
      // params.merId narrows the file to one of the key's merchants, as on the lists (another merchant's id: no rows).
      if (params.merId !== undefined && !/^\d{15}$/.test(params.merId))
        throw new V1Error(400, 'invalid_request_error', 'parameter_invalid', 'badRequest', { detail: 'params.merId: merchant id' }, 'params.merId');
      const scope = narrowScope(key.scope, params.merId);
      // Times in the file: the platform's zone (what the API's filters speak).
      const tzOffset = zoneOffsetMinutes(deps.config.platformTz, deps.clock.now().getTime()) / 60;
      const row = await enqueueExport(deps, {
        userId: key.creatorId,
        merId: key.ownerMerId,
        scope,
        permissions: key.permissions,
        kind: req.body.kind,
        params,
        format: req.body.format,
        lang: key.lang,
        tzOffset,
        apiKeyId: key.keyId,
      });
      reply.status(202);
      return view(row);
    },
  });

  r.get('/exports/:id', {
    config: { v1: { permission: Perm.reportFile, tag: 'exports' } },
    schema: { tags: hidden, operationId: 'getExport', summary: "An export's status (queued, running, ready, failed)", params: idParams, response: { 200: exportSchema } },
    handler: async (req) => view(await own(req, req.params.id)),
  });

  r.get('/exports/:id/file', {
    config: { v1: { permission: Perm.reportFile, tag: 'exports', errors: [409], file: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] } },
    schema: {
      tags: hidden,
      operationId: 'downloadExport',
      summary: 'Download a ready export (CSV or XLSX); 409 export_not_ready before',
      params: idParams,
    },
    handler: async (req, reply) => {
      const e = await own(req, req.params.id);
      if (e.status !== 'ready' || !e.path) throw new V1Error(409, 'invalid_request_error', 'export_not_ready', 'exportNotReady', {}, 'id');
      const full = path.join(exportDir(deps), path.basename(e.path));
      if (!fs.existsSync(full)) throw new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'id');
      reply.header('Content-Type', contentTypeOf(e.format));
      reply.header('Content-Disposition', disposition(e.file_name));
      reply.header('Content-Length', fs.statSync(full).size);
      reply.header('Cache-Control', 'no-store');
      return reply.send(fs.createReadStream(full));
    },
  });
}
