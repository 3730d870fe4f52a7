import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NoticeApi, pageQuerySchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { notFound } from '../../lib/errors';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { disposition } from '../export';
import { ATTACHMENT_TYPES } from './attachment.service';
import { listNotices, noticeAttachment, noticeDetail } from './notice.service';

const noticeRow = z.object({
  id: z.number(),
  title: z.string(),
  summary: z.string(),
  level: z.enum(['info', 'important']),
  publishedAt: z.string(),
  link: z.string().nullable(),
});

export function noticeRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(NoticeApi.list),
    schema: {
      tags: ['notice'],
      summary: "Notices for the caller's merchants, newest first",
      querystring: inputOf(NoticeApi.list)(pageQuerySchema),
      response: { 200: envelope(answerOf(NoticeApi.list)(pageOf(noticeRow))) },
    },
    handler: async (req) => ok(await listNotices(deps, userOf(req).scope, req.query.page, req.query.size, req.lang)),
  });

  r.route({
    ...routeOf(NoticeApi.detail),
    schema: {
      tags: ['notice'],
      summary: 'One notice, with the files the provider attached (download: /notice/attachment/{id})',
      params: inputOf(NoticeApi.detail)(z.object({ id: z.coerce.number().int().positive().max(2147483647) })),
      response: {
        200: envelope(
          answerOf(NoticeApi.detail)(noticeRow.extend({ content: z.string(), attachments: z.array(z.object({ id: z.number(), fileName: z.string(), format: z.string(), sizeBytes: z.number() })) })),
        ),
      },
    },
    handler: async (req) => ok(await noticeDetail(deps, userOf(req).scope, req.params.id, req.lang)),
  });

  r.route({
    ...routeOf(NoticeApi.attachment),
    schema: {
      tags: ['notice'],
      summary: "A file attached to a notice the caller may read (also listed in /files); another merchant's → 404",
      params: inputOf(NoticeApi.attachment)(z.object({ id: z.coerce.number().int().positive().max(2147483647) })),
    },
    handler: async (req, reply) => {
      const a = await noticeAttachment(deps, userOf(req).scope, req.params.id);
      if (!a) throw notFound();
      const abs = path.resolve(deps.config.dataDir, a.file_path);
      if (!abs.startsWith(path.resolve(deps.config.dataDir, 'files') + path.sep)) throw notFound();
      const body = await readFile(abs).catch(() => null);
      if (!body) throw notFound();
      reply.header('Cache-Control', 'no-store');
      reply.header('Content-Disposition', disposition(a.file_name));
      reply.header('Content-Type', ATTACHMENT_TYPES[a.format]);
      reply.header('X-Content-Type-Options', 'nosniff');
      return reply.send(body);
    },
  });
}
