import type { Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { notFound } from '../../lib/errors';
import type { AttachmentFormat } from './attachment.service';
import { noticeVisible } from './visibility';

/**
 * The merchant side of the provider's notices (spec §12): the list, one notice with its files, and
 * a file to download — each only among the notices the caller's merchants may read (visibility.ts).
 */
interface Row {
  id: number;
  title: Record<string, string>;
  summary: Record<string, string>;
  content: Record<string, string>;
  level: 'info' | 'important';
  link: string | null;
  published_at: Date;
}

export interface NoticeOut {
  id: number;
  title: string;
  summary: string;
  level: 'info' | 'important';
  publishedAt: string;
  link: string | null;
}

/** The text in the caller's language, else English. */
const pick = (m: Record<string, string>, lang: string) => m[lang] || m.en || '';
const VISIBLE = noticeVisible('notice', '$1', '$2');

function out(n: Row, lang: Language): NoticeOut {
  return { id: n.id, title: pick(n.title, lang), summary: pick(n.summary, lang), level: n.level, publishedAt: new Date(n.published_at).toISOString(), link: n.link };
}

/** A page of the notices `scope` may read, newest first, and how many there are. */
export async function listNotices(deps: Deps, scope: string[], page: number, size: number, lang: Language): Promise<{ content: NoticeOut[]; totalElements: number }> {
  const now = deps.clock.now();
  const [list, count] = await Promise.all([
    deps.db.query<Row>(`SELECT * FROM notice WHERE ${VISIBLE} ORDER BY published_at DESC, id DESC LIMIT $3 OFFSET $4`, [scope, now, size, page * size]),
    deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notice WHERE ${VISIBLE}`, [scope, now]),
  ]);
  return { content: list.rows.map((n) => out(n, lang)), totalElements: count.rows[0].n };
}

/** One notice `scope` may read, with its attached files; another merchant's answers as absent. */
export async function noticeDetail(deps: Deps, scope: string[], id: number, lang: Language) {
  const { rows } = await deps.db.query<Row>(`SELECT * FROM notice WHERE id = $3 AND ${VISIBLE}`, [scope, deps.clock.now(), id]);
  const n = rows[0];
  if (!n) throw notFound();
  const att = await deps.db.query<{ id: number; file_name: string; format: string; size_bytes: number }>(
    'SELECT id, file_name, format, size_bytes FROM notice_attachment WHERE notice_id = $1 ORDER BY id',
    [n.id],
  );
  return {
    attachments: att.rows.map((a) => ({ id: Number(a.id), fileName: a.file_name, format: a.format, sizeBytes: a.size_bytes })),
    ...out(n, lang),
    content: pick(n.content, lang),
  };
}

/** The stored file of an attachment on a notice `scope` may read, or null. */
export async function noticeAttachment(deps: Deps, scope: string[], id: number): Promise<{ file_name: string; format: AttachmentFormat; file_path: string } | null> {
  const { rows } = await deps.db.query<{ file_name: string; format: AttachmentFormat; file_path: string }>(
    `SELECT a.file_name, a.format, a.file_path FROM notice_attachment a JOIN notice n ON n.id = a.notice_id WHERE a.id = $3 AND ${noticeVisible('n', '$1', '$2')}`,
    [scope, deps.clock.now(), id],
  );
  return rows[0] ?? null;
}
