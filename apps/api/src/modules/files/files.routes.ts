import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NoticeApi, documentListQuerySchema, merchantDocumentSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { notFound } from '../../lib/errors';
import { disposition } from '../export';
import { documentOf, listDocuments } from './files.service';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2147483647) });

/** /files: the documents the provider publishes to the caller's merchants (monthly statements, fee schedules). */
export function filesRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(NoticeApi.documents),
    schema: {
      tags: ['files'],
      summary: "Documents published to the caller's merchants, in the caller's language, newest first: monthly statements (PDF, CSV) and fee schedules (PDF)",
      description:
        "kind MONTHLY_STATEMENT or FEE_SCHEDULE; periodFrom/periodTo yyyy-MM (inclusive; a fee schedule's period is its issue date); currency ISO 4217. " +
        'The fee schedule of each merchant is regenerated here when its fee rows changed. NOTICE_ATTACHMENT rows are files attached to notices the caller may read ' +
        "(download with /notice/attachment/{id}). Distinct from /report/file (the user's own exports).",
      querystring: inputOf(NoticeApi.documents)(documentListQuerySchema),
      response: { 200: envelope(answerOf(NoticeApi.documents)(pageOf(merchantDocumentSchema))) },
    },
    handler: async (req) => ok(await listDocuments(deps, userOf(req).scope, req.query, req.lang)),
  });

  r.route({
    ...routeOf(NoticeApi.document),
    schema: { tags: ['files'], summary: "One published document (PDF or CSV) of the caller's merchants; another merchant's id answers 404", params: inputOf(NoticeApi.document)(idParams) },
    handler: async (req, reply) => {
      const d = await documentOf(deps, userOf(req).scope, req.params.id);
      if (!d) throw notFound();
      const abs = path.resolve(deps.config.dataDir, d.file_path);
      if (!abs.startsWith(path.resolve(deps.config.dataDir, 'files') + path.sep)) throw notFound();
      const body = await readFile(abs).catch(() => null);
      if (!body) throw notFound();
      reply.header('Cache-Control', 'no-store');
      reply.header('Content-Disposition', disposition(d.file_name));
      reply.header('Content-Type', d.format === 'pdf' ? 'application/pdf' : 'text/csv; charset=utf-8');
      return reply.send(body);
    },
  });
}
