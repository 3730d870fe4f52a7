import { toDecimal, type DocumentListQuery, type Language, type MerchantDocument } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { badRequest } from '../../lib/errors';
import { noticeVisible } from '../notice';
import { ensureFeeSchedule } from './documents.service';

/** /files (spec §11): the documents the provider publishes to the caller's merchants, and one to download. */
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

/**
 * A page of the documents of `scope` in `lang` (the fee schedule of each merchant regenerated first
 * when its fee rows changed) and of the files of the notices the caller may read.
 */
export async function listDocuments(deps: Deps, scope: string[], q: DocumentListQuery, lang: Language): Promise<{ content: MerchantDocument[]; totalElements: number }> {
  const f = q;
  if (f.periodFrom && f.periodTo && f.periodFrom > f.periodTo) throw badRequest('periodFrom must not be after periodTo');
  const now = deps.clock.now();
  for (const merId of scope) await ensureFeeSchedule(deps.db, deps.config.dataDir, deps.config.platformTz, merId, lang, now);
  const params: unknown[] = [scope, lang, now, deps.config.platformTz];
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
  return {
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
  };
}

/** A published document of `scope` (its stored file), or null: another merchant's answers as absent. */
export async function documentOf(deps: Deps, scope: string[], id: number): Promise<Pick<DocRow, 'file_name' | 'file_path' | 'format'> | null> {
  const { rows } = await deps.db.query<DocRow>('SELECT id, mer_id, kind, format, file_name, file_path FROM merchant_document WHERE id = $1 AND mer_id = ANY($2::text[])', [id, scope]);
  return rows[0] ?? null;
}
