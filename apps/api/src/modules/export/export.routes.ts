import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Code, FilesApi, exportFileSchema, pageQuerySchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { AppError, notFound } from '../../lib/errors';
import { findFile, listFiles, markDeleted, toExportFile } from './export.repo';
import { contentTypeOf, disposition, exportDir } from './export.service';

const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** The file-report area (/report/file): the caller's own export files. */
export function exportRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(FilesApi.list),
    schema: {
      tags: ['files'],
      summary: "The caller's export files, newest first (status queued/running/ready/failed, progress, rows, size)",
      querystring: inputOf(FilesApi.list)(pageQuerySchema),
      response: { 200: envelope(answerOf(FilesApi.list)(pageOf(exportFileSchema))) },
    },
    handler: async (req) => {
      const { rows, total } = await listFiles(deps.db, userOf(req).id, req.query.page, req.query.size);
      return ok({ content: rows.map(toExportFile), totalElements: total });
    },
  });

  r.route({
    ...routeOf(FilesApi.download),
    schema: { tags: ['files'], summary: "Download a ready export file (another user's answers as absent)", params: inputOf(FilesApi.download)(idParam) },
    handler: async (req, reply) => {
      const f = await findFile(deps.db, req.params.id, userOf(req).id);
      if (!f) throw notFound();
      if (f.status !== 'ready' || !f.path) throw new AppError(Code.CONFLICT, 'exportNotReady', {}, 409);
      const full = path.join(exportDir(deps), path.basename(f.path));
      if (!fs.existsSync(full)) throw notFound();
      reply.header('Content-Type', contentTypeOf(f.format));
      reply.header('Content-Disposition', disposition(f.file_name));
      reply.header('Content-Length', fs.statSync(full).size);
      reply.header('Cache-Control', 'no-store');
      return reply.send(fs.createReadStream(full));
    },
  });

  r.route({
    ...routeOf(FilesApi.delete),
    schema: { tags: ['files'], summary: 'Delete an export file (form: id)', body: inputOf(FilesApi.delete)(idParam), response: { 200: envelope(answerOf(FilesApi.delete)(z.null())) } },
    handler: async (req) => {
      const f = await findFile(deps.db, req.body.id, userOf(req).id);
      if (!f) throw notFound();
      await markDeleted(deps.db, f.id);
      if (f.path) fs.rmSync(path.join(exportDir(deps), path.basename(f.path)), { force: true });
      return ok(null);
    },
  });
}
