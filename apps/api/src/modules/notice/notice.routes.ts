import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, pageQuerySchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { notFound } from '../../lib/errors';

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
  const visible = `(mer_id IS NULL OR mer_id = ANY($1::text[])) AND published_at <= $2`;

  r.get('/api/notice/list', {
    config: { permission: Perm.noticeList },
    schema: { tags: ['notice'], summary: 'Notices for the caller\'s merchants, newest first', querystring: pageQuerySchema, response: { 200: envelope(pageOf(noticeRow)) } },
    handler: async (req) => {
      const u = userOf(req);
      const now = deps.clock.now();
      const [list, count] = await Promise.all([
        deps.db.query<Row>(`SELECT * FROM notice WHERE ${visible} ORDER BY published_at DESC, id DESC LIMIT $3 OFFSET $4`, [
          u.scope,
          now,
          req.query.size,
          req.query.page * req.query.size,
        ]),
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
    schema: { tags: ['notice'], summary: 'One notice', params: z.object({ id: z.coerce.number().int().positive().max(2147483647) }), response: { 200: envelope(noticeRow.extend({ content: z.string() })) } },
    handler: async (req) => {
      const u = userOf(req);
      const { rows } = await deps.db.query<Row>(`SELECT * FROM notice WHERE id = $3 AND ${visible}`, [u.scope, deps.clock.now(), req.params.id]);
      const n = rows[0];
      if (!n) throw notFound();
      return ok({
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
}
