import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Code } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { AppError } from '../../lib/errors';

export const ATTACHMENT_TYPES = { pdf: 'application/pdf', csv: 'text/csv; charset=utf-8', png: 'image/png', jpg: 'image/jpeg' } as const;
export type AttachmentFormat = keyof typeof ATTACHMENT_TYPES;

/** The format of a file by its content (magic bytes; CSV: UTF-8 text without NUL), or null. */
export function attachmentFormat(name: string, body: Buffer): AttachmentFormat | null {
  if (body.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (body[0] === 0xff && body[1] === 0xd8 && body[2] === 0xff) return 'jpg';
  if (/\.csv$/i.test(name) && !body.includes(0)) return 'csv';
  return null;
}

/** At most this many bytes per attached file. */
const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * A file name safe to store and to send back in Content-Disposition: the last path part, without
 * control characters nor bidirectional controls (a name such as "invoice\u202Efdp.exe" would show
 * reversed), at most 150 characters; "attachment" when nothing is left.
 */
function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g, '').replace(/^[\s.]+|\s+$/g, '');
  return [...clean].slice(0, 150).join('') || 'attachment';
}

/** The checks of every attached file (back office and publish-notice): kind by content, size, safe name. */
export function checkAttachment(name: string, body: Buffer): { name: string; body: Buffer; format: AttachmentFormat } {
  const safe = safeFileName(name);
  const format = attachmentFormat(safe, body);
  if (!format) throw new AppError(Code.BAD_REQUEST, 'opsNoticeFileKind', { name: safe }, 400);
  if (body.length > ATTACHMENT_MAX_BYTES) throw new AppError(Code.BAD_REQUEST, 'opsNoticeFileSize', { name: safe }, 400);
  return { name: safe, body, format };
}

export async function attachFile(q: Queryable, dataDir: string, noticeId: number, name: string, body: Buffer, format: AttachmentFormat): Promise<number> {
  const rel = path.posix.join('files', 'notice', String(noticeId), `${randomBytes(8).toString('hex')}.${format}`);
  await mkdir(path.dirname(path.join(dataDir, rel)), { recursive: true });
  await writeFile(path.join(dataDir, rel), body);
  const { rows } = await q.query<{ id: number }>(`INSERT INTO notice_attachment (notice_id, file_name, format, file_path, size_bytes) VALUES ($1,$2,$3,$4,$5) RETURNING id`, [
    noticeId,
    name,
    format,
    rel,
    body.length,
  ]);
  return Number(rows[0].id);
}

/** Demo data (first start): the newest notice for every merchant carries a small PDF. */
export async function seedNoticeAttachment(q: Queryable, dataDir: string): Promise<void> {
  const { rows } = await q.query<{ id: number }>('SELECT id FROM notice WHERE mer_id IS NULL ORDER BY published_at DESC, id DESC LIMIT 1');
  if (!rows[0]) return;
  const { createPdf, pdfToBuffer, PDF_FONT, PDF_FONT_BOLD } = await import('../../lib/pdf');
  const doc = createPdf({ lang: 'en', title: 'Merchant service terms — summary of changes', createdAt: new Date('2026-01-01T00:00:00Z') });
  doc.font(PDF_FONT_BOLD).fontSize(16).text('Merchant service terms — summary of changes');
  doc.moveDown().font(PDF_FONT).fontSize(10).text('This demo attachment stands in for a document the provider attaches to a notice. It is listed on the notice and in Files download.');
  await attachFile(q, dataDir, rows[0].id, 'Service terms - summary of changes.pdf', await pdfToBuffer(doc), 'pdf');
}
