import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { Code, type OpsNoticeInput, type OpsNoticeRow, type OpsNoticeStatus, type OpsNoticeTarget } from '@portal/contract';
import type { Db, Queryable } from '../../db/db';
import { audit } from '../../lib/audit';
import { AppError, notFound } from '../../lib/errors';
import { formatInZone, zonedToUtc } from '../../lib/zone';
import { attachFile, checkAttachment, type AttachmentFormat } from '../notice';
import type { Meta } from '../user';

/**
 * Notices in the back office (decision 044): written, targeted, scheduled, edited while scheduled and
 * withdrawn by an operator — or by `npm run publish-notice`, which calls these same functions. Which
 * notices a merchant user sees is notice/visibility.ts.
 */
const OpsNoticeAudit = { created: 'ops.notice.create', edited: 'ops.notice.edit', withdrawn: 'ops.notice.withdraw' } as const;

/** Who acts: an operator, or the command line. */
export type NoticeActor = { id: number; username: string } | { cli: true };
const who = (by: NoticeActor) => ('cli' in by ? { operatorId: null, username: 'cli' } : { operatorId: by.id, username: by.username });

/** What createNotice/editNotice need besides the input: the database, DATA_DIR and the clock's now. */
export interface NoticeEnv {
  db: Db;
  dataDir: string;
  now: Date;
}

interface NoticeDbRow {
  id: number;
  title: Record<string, string>;
  summary: Record<string, string>;
  content: Record<string, string>;
  level: 'info' | 'important';
  mer_id: string | null;
  targeted: boolean;
  group_id: string | null;
  published_at: Date;
  withdrawn_at: Date | null;
  withdrawn_by: string | null;
  created_by: string | null;
  created_at: Date | null;
  merchants: string[] | null;
}

const text = (m: Record<string, string>) => m.en ?? Object.values(m)[0] ?? '';
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function noticeStatus(r: { published_at: Date; withdrawn_at: Date | null }, now: Date): OpsNoticeStatus {
  if (r.withdrawn_at) return 'withdrawn';
  return new Date(r.published_at).getTime() > now.getTime() ? 'scheduled' : 'published';
}

function targetOf(r: NoticeDbRow): { target: OpsNoticeTarget; merchants: string[]; groupId: string | null } {
  if (!r.targeted) return r.mer_id ? { target: 'merchants', merchants: [r.mer_id], groupId: null } : { target: 'all', merchants: [], groupId: null };
  if (r.group_id) return { target: 'group', merchants: [], groupId: r.group_id };
  return { target: 'merchants', merchants: [...(r.merchants ?? [])].sort(), groupId: null };
}

const SELECT = `SELECT n.*, (SELECT array_agg(t.mer_id ORDER BY t.mer_id) FROM notice_target t WHERE t.notice_id = n.id) AS merchants FROM notice n`;

async function rowOut(q: Queryable, r: NoticeDbRow, now: Date): Promise<OpsNoticeRow> {
  const att = await q.query<{ id: number; file_name: string; format: string; size_bytes: number }>('SELECT id, file_name, format, size_bytes FROM notice_attachment WHERE notice_id = $1 ORDER BY id', [
    r.id,
  ]);
  return {
    id: r.id,
    title: text(r.title),
    summary: text(r.summary),
    content: text(r.content),
    level: r.level,
    status: noticeStatus(r, now),
    ...targetOf(r),
    publishedAt: new Date(r.published_at).toISOString(),
    createdBy: r.created_by,
    createdAt: iso(r.created_at),
    withdrawnAt: iso(r.withdrawn_at),
    withdrawnBy: r.withdrawn_by,
    attachments: att.rows.map((a) => ({ id: Number(a.id), fileName: a.file_name, format: a.format, sizeBytes: a.size_bytes })),
  };
}

/** The back office's list: every notice (also those other modules wrote), newest publication first. */
export async function listNotices(db: Queryable, f: { status?: OpsNoticeStatus; page: number; size: number }, now: Date) {
  const cond = {
    scheduled: 'n.withdrawn_at IS NULL AND n.published_at > $1',
    published: 'n.withdrawn_at IS NULL AND n.published_at <= $1',
    withdrawn: 'n.withdrawn_at IS NOT NULL AND $1::timestamptz IS NOT NULL',
  };
  const where = f.status ? cond[f.status] : '$1::timestamptz IS NOT NULL';
  const [list, count] = await Promise.all([
    db.query<NoticeDbRow>(`${SELECT} WHERE ${where} ORDER BY n.published_at DESC, n.id DESC LIMIT $2 OFFSET $3`, [now, f.size, f.page * f.size]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notice n WHERE ${where}`, [now]),
  ]);
  const content: OpsNoticeRow[] = [];
  for (const r of list.rows) content.push(await rowOut(db, r, now));
  return { content, totalElements: count.rows[0].n };
}

export async function getNotice(db: Queryable, id: number, now: Date): Promise<OpsNoticeRow> {
  const { rows } = await db.query<NoticeDbRow>(`${SELECT} WHERE n.id = $1`, [id]);
  if (!rows[0]) throw notFound();
  return rowOut(db, rows[0], now);
}

/**
 * The publication instant: the wall time publishAt in the operator's zone, parsed strictly (a time the
 * clocks skip is refused, not moved), and in the future; none: now.
 */
function publicationInstant(input: Pick<OpsNoticeInput, 'publishAt' | 'timeZone'>, now: Date): Date {
  if (!input.publishAt) return now;
  const zone = input.timeZone ?? 'UTC';
  const at = zonedToUtc(input.publishAt, zone);
  if (formatInZone(at, zone) !== input.publishAt) throw new AppError(Code.BAD_REQUEST, 'opsNoticeAtGap', { at: input.publishAt, zone }, 400);
  if (at.getTime() <= now.getTime()) throw new AppError(Code.BAD_REQUEST, 'opsNoticeAtPast', {}, 400);
  return at;
}

async function checkTargets(q: Queryable, input: OpsNoticeInput): Promise<void> {
  const ids = input.target === 'merchants' ? [...new Set(input.merchants)] : input.target === 'group' ? [input.groupId!] : [];
  if (!ids.length) return;
  const { rows } = await q.query<{ mer_id: string; attribute: string }>('SELECT mer_id, attribute FROM merchant WHERE mer_id = ANY($1::text[])', [ids]);
  const found = new Map(rows.map((r) => [r.mer_id, r.attribute]));
  const missing = ids.find((m) => !found.has(m));
  if (missing) throw new AppError(Code.BAD_REQUEST, 'opsNoticeMerchantUnknown', { merId: missing }, 400);
  if (input.target === 'group' && found.get(input.groupId!) !== 'GROUP') throw new AppError(Code.BAD_REQUEST, 'opsNoticeNotGroup', { merId: input.groupId! }, 400);
}

function decodeFiles(input: OpsNoticeInput): { name: string; body: Buffer; format: AttachmentFormat }[] {
  return input.files.map((f) => checkAttachment(f.name, Buffer.from(f.contentBase64, 'base64')));
}

async function writeTargets(q: Queryable, id: number, input: OpsNoticeInput): Promise<void> {
  await q.query('DELETE FROM notice_target WHERE notice_id = $1', [id]);
  if (input.target === 'merchants') await q.query('INSERT INTO notice_target (notice_id, mer_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [id, [...new Set(input.merchants)]]);
}

const snapshot = (n: OpsNoticeRow) => ({
  title: n.title,
  summary: n.summary,
  content: n.content,
  level: n.level,
  status: n.status,
  target: n.target,
  merchants: n.merchants,
  groupId: n.groupId,
  publishedAt: n.publishedAt,
  withdrawnAt: n.withdrawnAt,
  attachments: n.attachments.map((a) => a.fileName),
});
const auditMer = (n: OpsNoticeRow) => (n.target === 'merchants' && n.merchants.length === 1 ? n.merchants[0] : n.target === 'group' ? n.groupId : null);

/** Writes a notice: at once or at a future instant, to every merchant, chosen merchants or a group; audited (after). */
export async function createNotice(env: NoticeEnv, input: OpsNoticeInput, by: NoticeActor, meta: Meta): Promise<OpsNoticeRow> {
  const at = publicationInstant(input, env.now);
  const files = decodeFiles(input);
  return env.db.tx(async (q) => {
    await checkTargets(q, input);
    const j = (s: string) => JSON.stringify({ en: s });
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO notice (title, summary, content, level, mer_id, targeted, group_id, published_at, created_by, created_at, updated_at)
       VALUES ($1,$2,$3,$4,NULL,$5,$6,$7,$8,$9,$9) RETURNING id`,
      [j(input.title), j(input.summary || input.title), j(input.content), input.level, input.target !== 'all', input.target === 'group' ? input.groupId : null, at, who(by).username, env.now],
    );
    const id = rows[0].id;
    await writeTargets(q, id, input);
    for (const f of files) await attachFile(q, env.dataDir, id, f.name, f.body, f.format);
    const after = await getNotice(q, id, env.now);
    await audit(q, { action: OpsNoticeAudit.created, ...who(by), merId: auditMer(after), target: `notice:${id}`, detail: { after: snapshot(after) }, ...meta });
    return after;
  });
}

/** Edits a notice not yet published (its text, target, time, attachments); audited before/after. */
export async function editNotice(env: NoticeEnv, id: number, input: OpsNoticeInput, by: NoticeActor, meta: Meta): Promise<OpsNoticeRow> {
  const at = publicationInstant(input, env.now);
  const files = decodeFiles(input);
  const removed: string[] = [];
  const out = await env.db.tx(async (q) => {
    const locked = await q.query<{ id: number }>('SELECT id FROM notice WHERE id = $1 FOR UPDATE', [id]);
    if (!locked.rows[0]) throw notFound();
    const before = await getNotice(q, id, env.now);
    if (before.status !== 'scheduled') throw new AppError(Code.BAD_REQUEST, 'opsNoticeNotScheduled', {}, 409);
    await checkTargets(q, input);
    const j = (s: string) => JSON.stringify({ en: s });
    await q.query(`UPDATE notice SET title = $2, summary = $3, content = $4, level = $5, mer_id = NULL, targeted = $6, group_id = $7, published_at = $8, updated_at = $9 WHERE id = $1`, [
      id,
      j(input.title),
      j(input.summary || input.title),
      j(input.content),
      input.level,
      input.target !== 'all',
      input.target === 'group' ? input.groupId : null,
      at,
      env.now,
    ]);
    await writeTargets(q, id, input);
    if (input.removeAttachments.length) {
      const del = await q.query<{ file_path: string }>('DELETE FROM notice_attachment WHERE notice_id = $1 AND id = ANY($2::bigint[]) RETURNING file_path', [id, input.removeAttachments]);
      removed.push(...del.rows.map((r) => r.file_path));
    }
    for (const f of files) await attachFile(q, env.dataDir, id, f.name, f.body, f.format);
    const after = await getNotice(q, id, env.now);
    await audit(q, {
      action: OpsNoticeAudit.edited,
      ...who(by),
      merId: auditMer(after) ?? auditMer(before),
      target: `notice:${id}`,
      detail: { before: snapshot(before), after: snapshot(after) },
      ...meta,
    });
    return after;
  });
  // The dropped files leave the disk once the rows are gone (after the commit).
  for (const rel of removed) await unlink(path.join(env.dataDir, rel)).catch(() => undefined);
  return out;
}

/**
 * Withdraws a notice (published, or scheduled: then it never appears): merchants no longer see it
 * nor its attachments; the row and the files are kept for the record. Audited before/after.
 */
export async function withdrawNotice(env: NoticeEnv, id: number, by: NoticeActor, meta: Meta): Promise<OpsNoticeRow> {
  return env.db.tx(async (q) => {
    const locked = await q.query<{ id: number }>('SELECT id FROM notice WHERE id = $1 FOR UPDATE', [id]);
    if (!locked.rows[0]) throw notFound();
    const before = await getNotice(q, id, env.now);
    if (before.status === 'withdrawn') throw new AppError(Code.BAD_REQUEST, 'opsNoticeWithdrawn', {}, 409);
    await q.query('UPDATE notice SET withdrawn_at = $2, withdrawn_by = $3, updated_at = $2 WHERE id = $1', [id, env.now, who(by).username]);
    const after = await getNotice(q, id, env.now);
    await audit(q, { action: OpsNoticeAudit.withdrawn, ...who(by), merId: auditMer(before), target: `notice:${id}`, detail: { before: snapshot(before), after: snapshot(after) }, ...meta });
    return after;
  });
}
