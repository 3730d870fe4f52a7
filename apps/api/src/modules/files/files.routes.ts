import { noticeVisible } from '../notice/visibility';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { documentListQuerySchema, merchantDocumentSchema, Perm, toDecimal, type Language, type MerchantDocument } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { badRequest, notFound } from '../../lib/errors';
import { disposition } from '../export/export.service';
import { ensureFeeSchedule } from './documents.service';

interface DocRow {
  id: number;
  mer_id: string | null;
  notice_id: number | null;
  kind: MerchantDocument['kind'];
  period: string;
  currency: string | null;
  format: 'pdf' | 'csv';
  file_name: string;
  file_path: string;
  size_bytes: number;
  created_at: Date;
  closing: string | null;
}

const idParams = z.object({ id: z.coerce.number().int().positive().max(2147483647) });

/** /files: the documents the provider publishes to the caller's merchants (monthly statements, fee schedules). */
export function filesRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/files/list', {
    config: { permission: Perm.filesDownload },
    schema: {
      tags: ['files'],
      summary: "Documents published to the caller's merchants, in the caller's language, newest first: monthly statements (PDF, CSV) and fee schedules (PDF)",
      description:
        "kind MONTHLY_STATEMENT or FEE_SCHEDULE; periodFrom/periodTo yyyy-MM (inclusive; a fee schedule's period is its issue date); currency ISO 4217. " +
        'The fee schedule of each merchant is regenerated here when its fee rows changed. NOTICE_ATTACHMENT rows are files attached to notices the caller may read ' +
        "(download with /notice/attachment/{id}). Distinct from /report/file (the user's own exports).",
      querystring: documentListQuerySchema,
      response: { 200: envelope(pageOf(merchantDocumentSchema)) },
    },
    handler: async (req) => {
      const u = userOf(req);
      const f = req.query;
      if (f.periodFrom && f.periodTo && f.periodFrom > f.periodTo) throw badRequest('periodFrom must not be after periodTo');
      const now = deps.clock.now();
      for (const merId of u.scope) await ensureFeeSchedule(deps.db, deps.config.dataDir, deps.config.platformTz, merId, req.lang as Language, now);
      const params: unknown[] = [u.scope, req.lang, now, deps.config.platformTz];
      let where = 'TRUE';
      const add = (sql: string, v: unknown) => {
        params.push(v);
        where += ` AND ${sql.replaceAll('?', `$${params.length}`)}`;
      };
      if (f.kind) add('kind = ?', f.kind);
      if (f.periodFrom) add('substr(period, 1, 7) >= ?', f.periodFrom);
      if (f.periodTo) add('substr(period, 1, 7) <= ?', f.periodTo);
      if (f.currency) add('currency = ?', f.currency);
      // The merchant documents in the caller's language, and the attachments of the notices the caller may read.
      const docs = `(SELECT id, mer_id, NULL::int AS notice_id, kind, period, currency, format, file_name, size_bytes, created_at, data->>'closing' AS closing
                       FROM merchant_document WHERE mer_id = ANY($1::text[]) AND lang = $2
                     UNION ALL
                     SELECT a.id, n.mer_id, n.id, 'NOTICE_ATTACHMENT', to_char(n.published_at AT TIME ZONE $4::text, 'YYYY-MM-DD'), NULL, a.format, a.file_name,
                            a.size_bytes, n.published_at, NULL
                       FROM notice_attachment a JOIN notice n ON n.id = a.notice_id
                      WHERE ${noticeVisible('n', '$1', '$3')}) d`;
      const [list, count] = await Promise.all([
        deps.db.query<DocRow>(`SELECT * FROM ${docs} WHERE ${where} ORDER BY period DESC, kind, mer_id, currency, format DESC, id DESC LIMIT ${f.size} OFFSET ${f.page * f.size}`, params),
        deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${docs} WHERE ${where}`, params),
      ]);
      return ok({
        content: list.rows.map((d) => {
          const cur = d.currency?.trim() ?? null;
          return {
            id: Number(d.id),
            merId: d.mer_id,
            noticeId: d.notice_id === null ? null : Number(d.notice_id),
            kind: d.kind,
            period: d.period,
            currency: cur,
            format: d.format,
            fileName: d.file_name,
            sizeBytes: d.size_bytes,
            publishedAt: new Date(d.created_at).toISOString(),
            closing: d.kind === 'MONTHLY_STATEMENT' && d.closing !== null && cur ? toDecimal(Number(d.closing), cur) : null,
          };
        }),
        totalElements: count.rows[0].n,
      });
    },
  });

  r.get('/api/files/download/:id', {
    config: { permission: Perm.filesDownload },
    schema: { tags: ['files'], summary: "One published document (PDF or CSV) of the caller's merchants; another merchant's id answers 404", params: idParams },
    handler: async (req, reply) => {
      const u = userOf(req);
      const { rows } = await deps.db.query<DocRow>('SELECT id, mer_id, kind, format, file_name, file_path FROM merchant_document WHERE id = $1 AND mer_id = ANY($2::text[])', [req.params.id, u.scope]);
      const d = rows[0];
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
