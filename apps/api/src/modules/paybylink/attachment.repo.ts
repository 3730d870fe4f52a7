import type { PblAttachmentType } from '@portal/contract';
import type { Queryable } from '../../db/db';

export interface AttachmentRow {
  id: number;
  file_key: string;
  mer_id: string;
  file_name: string;
  kind: PblAttachmentType;
  content_type: string;
  size_bytes: number;
  storage_path: string;
}

export async function insertAttachment(
  q: Queryable,
  a: { key: string; merId: string; userId: number; fileName: string; kind: PblAttachmentType; contentType: string; size: number; sha256: string; storagePath: string; now: Date },
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO pay_by_link_attachment (file_key, mer_id, uploaded_by, file_name, kind, content_type, size_bytes, sha256, storage_path, created_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING id`,
    [a.key, a.merId, a.userId, a.fileName, a.kind, a.contentType, a.size, a.sha256, a.storagePath, a.now],
  );
  return rows[0].id;
}

/**
 * An attachment by its wire key, only when the caller may see it: uploaded by a merchant in
 * `scope`, or attached to an order of one (else as if absent).
 */
export async function findAttachment(q: Queryable, key: string, scope: string[]): Promise<AttachmentRow | null> {
  const { rows } = await q.query<AttachmentRow>(
    `SELECT id, file_key, mer_id, file_name, kind, content_type, size_bytes, storage_path FROM pay_by_link_attachment
      WHERE file_key = $1 AND (mer_id = ANY($2::text[])
        OR EXISTS (SELECT 1 FROM pay_by_link_order o WHERE o.attachment_id = pay_by_link_attachment.id AND o.mer_id = ANY($2::text[])))`,
    [key, scope],
  );
  return rows[0] ?? null;
}

export async function attachmentById(q: Queryable, id: number): Promise<AttachmentRow | null> {
  const { rows } = await q.query<AttachmentRow>('SELECT id, file_key, mer_id, file_name, kind, content_type, size_bytes, storage_path FROM pay_by_link_attachment WHERE id = $1', [id]);
  return rows[0] ?? null;
}
