import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, pageQuerySchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { notFound } from '../../lib/errors';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { disposition } from '../export/export.service';
import { ATTACHMENT_TYPES, type AttachmentFormat } from './attachment.service';
import { noticeVisible } from './visibility';

const noticeRow = z.object({
  id: z.number(),
  title: z.string(),
  summary: z.string(),
  level: z.enum(['info', 'important']),
  publishedAt: z.string(),
  link: z.string().nullable(),
});

interface Row {
  id: number;
  title: Record<string, string>;
  summary: Record<string, string>;
  content: Record<string, string>;
  level: 'info' | 'important';
  link: string | null;
  published_at: Date;
}
const pick = (m: Record<string, string>, lang: string) => m[lang] || m.en || '';

export function noticeRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const visible = noticeVisible('notice', '$1', '$2');

  r.get('/api/notice/list', {
    config: { permission: Perm.noticeList },
    schema: { tags: ['notice'], summary: "Notices for the caller's merchants, newest first", querystring: pageQuerySchema, response: { 200: envelope(pageOf(noticeRow)) } },
    handler: async (req) => {
      const u = userOf(req);
      const now = deps.clock.now();
      const [list, count] = await Promise.all([
        deps.db.query<Row>(`SELECT * FROM notice WHERE ${visible} ORDER BY published_at DESC, id DESC LIMIT $3 OFFSET $4`, [u.scope, now, req.query.size, req.query.page * req.query.size]),
        deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notice WHERE ${visible}`, [u.scope, now]),
      ]);
      return ok({
        content: list.rows.map((n) => ({
          id: n.id,
          title: pick(n.title, req.lang),
          summary: pick(n.summary, req.lang),
          level: n.level,
          publishedAt: new Date(n.published_at).toISOString(),
          link: n.link,
        })),
        totalElements: count.rows[0].n,
      });
    },
  });

  r.get('/api/notice/detail/:id', {
    config: { permission: Perm.noticeList },
    schema: {
      tags: ['notice'],
      summary: 'One notice, with the files the provider attached (download: /notice/attachment/{id})',
      params: z.object({ id: z.coerce.number().int().positive().max(2147483647) }),
      response: { 200: envelope(noticeRow.extend({ content: z.string(), attachments: z.array(z.object({ id: z.number(), fileName: z.string(), format: z.string(), sizeBytes: z.number() })) })) },
    },
    handler: async (req) => {
      const u = userOf(req);
      const { rows } = await deps.db.query<Row>(`SELECT * FROM notice WHERE id = $3 AND ${visible}`, [u.scope, deps.clock.now(), req.params.id]);
      const n = rows[0];
      if (!n) throw notFound();
      const att = await deps.db.query<{ id: number; file_name: string; format: string; size_bytes: number }>(
        'SELECT id, file_name, format, size_bytes FROM notice_attachment WHERE notice_id = $1 ORDER BY id',
        [n.id],
      );
      return ok({
        attachments: att.rows.map((a) => ({ id: Number(a.id), fileName: a.file_name, format: a.format, sizeBytes: a.size_bytes })),
        id: n.id,
        title: pick(n.title, req.lang),
        summary: pick(n.summary, req.lang),
        content: pick(n.content, req.lang),
        level: n.level,
        publishedAt: new Date(n.published_at).toISOString(),
        link: n.link,
      });
    },
  });

  r.get('/api/notice/attachment/:id', {
    config: { permission: [Perm.noticeList, Perm.filesDownload] },
    schema: {
      tags: ['notice'],
      summary: "A file attached to a notice the caller may read (also listed in /files); another merchant's → 404",
      params: z.object({ id: z.coerce.number().int().positive().max(2147483647) }),
    },
    handler: async (req, reply) => {
      const u = userOf(req);
      const { rows } = await deps.db.query<{ file_name: string; format: AttachmentFormat; file_path: string }>(
        `SELECT a.file_name, a.format, a.file_path FROM notice_attachment a JOIN notice n ON n.id = a.notice_id WHERE a.id = $3 AND ${noticeVisible('n', '$1', '$2')}`,
        [u.scope, deps.clock.now(), req.params.id],
      );
      const a = rows[0];
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
