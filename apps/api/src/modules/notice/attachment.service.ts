import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../../db/db';

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

export interface NewNotice {
  title: string;
  summary?: string;
  content?: string;
  level?: 'info' | 'important';
  merId?: string | null;
  files: { name: string; body: Buffer }[];
}

/** Publishes a notice (same text in every language) with its attachments; the files go under DATA_DIR/files/notice/. */
export async function publishNotice(q: Queryable, dataDir: string, n: NewNotice, now: Date): Promise<{ id: number; attachments: number[] }> {
  const files = n.files.map((f) => {
    const format = attachmentFormat(f.name, f.body);
    if (!format) throw new Error(`${f.name}: only PDF, CSV, PNG or JPG files can be attached`);
    if (f.body.length > 20 * 1024 * 1024) throw new Error(`${f.name}: larger than 20 MiB`);
    return { ...f, format };
  });
  const text = (s: string) => JSON.stringify({ en: s });
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO notice (title, summary, content, level, mer_id, published_at) VALUES ($1,$2,$3,$4,$5,$6) RETURNING id`,
    [text(n.title), text(n.summary ?? n.title), text(n.content ?? n.summary ?? n.title), n.level ?? 'info', n.merId ?? null, now],
  );
  const id = rows[0].id;
  const attachments: number[] = [];
  for (const f of files) attachments.push(await attachFile(q, dataDir, id, path.basename(f.name), f.body, f.format));
  return { id, attachments };
}

export async function attachFile(q: Queryable, dataDir: string, noticeId: number, name: string, body: Buffer, format: AttachmentFormat): Promise<number> {
  const rel = path.posix.join('files', 'notice', String(noticeId), `${randomBytes(8).toString('hex')}.${format}`);
  await mkdir(path.dirname(path.join(dataDir, rel)), { recursive: true });
  await writeFile(path.join(dataDir, rel), body);
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO notice_attachment (notice_id, file_name, format, file_path, size_bytes) VALUES ($1,$2,$3,$4,$5) RETURNING id`,
    [noticeId, name, format, rel, body.length],
  );
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
