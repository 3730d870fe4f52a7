/** The merchant's answer being written: evidence files and the statement, drafts until submitted. */
import { createHash } from 'node:crypto';
import { Code } from '@portal/contract';
import { audit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { Deps, SessionUser } from '../../plugins/context';
import { normalise } from './disputes.money';
import { EVIDENCE_CATEGORIES, type EvidenceCategory } from './reason-codes';
import { assertAnswerable, rowOf, type EvidenceView, type Meta, type Who } from './disputes.view';

/** Evidence limits (the anchors' order of size): per file, per dispute; the statement's length. */
export const EVIDENCE_MAX_BYTES = 4_718_592; // 4.5 MiB
export const EVIDENCE_MAX_FILES = 10;
export const STATEMENT_MAX = 5000;

/** What a file really is, from its first bytes: PDF, PNG or JPEG — or null. */
export function evidenceMime(buf: Buffer): 'application/pdf' | 'image/png' | 'image/jpeg' | null {
  if (buf.length >= 5 && buf.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (buf.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => buf[i] === b)) return 'image/png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'image/jpeg';
  return null;
}

/** Throws not-found unless dispute `id` is one of the scope's (before an upload is read). */
export async function assertDisputeVisible(deps: Deps, scope: string[], id: number): Promise<void> {
  const { rows } = await deps.db.query('SELECT 1 FROM dispute WHERE id = $1 AND mer_id = ANY($2::text[])', [id, scope]);
  if (!rows.length) throw new AppError(Code.NOT_FOUND, 'disputeNotFound', {}, 404);
}

/** Adds an evidence file (draft until submitted): checked by content, size and count. */
export async function addEvidence(deps: Deps, user: Who, id: number, f: { category: string; fileName: string; data: Buffer }, meta: Meta = {}): Promise<EvidenceView> {
  if (!EVIDENCE_CATEGORIES.includes(f.category as EvidenceCategory)) throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'category' }, 400, { field: 'category' });
  if (f.data.length > EVIDENCE_MAX_BYTES) throw new AppError(Code.BAD_REQUEST, 'disputeFileTooLarge', { max: '4.5' }, 400, { field: 'file' });
  const mime = evidenceMime(f.data);
  if (!mime) throw new AppError(Code.BAD_REQUEST, 'disputeFileType', {}, 400, { field: 'file' });
  const name = f.fileName.replace(/[\\/\u0000-\u001f]/g, '_').slice(0, 200) || 'evidence';
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const r = await rowOf(q, id, user.scope, true);
    assertAnswerable(normalise(r), now);
    const { rows: n } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM dispute_evidence WHERE dispute_id = $1', [id]);
    if (n[0].n >= EVIDENCE_MAX_FILES) throw new AppError(Code.BAD_REQUEST, 'disputeTooManyFiles', { max: EVIDENCE_MAX_FILES }, 400, { field: 'file' });
    const sha = createHash('sha256').update(f.data).digest('hex');
    const { rows } = await q.query<{ id: string }>(
      `INSERT INTO dispute_evidence (dispute_id, category, file_name, mime, size, sha256, content, uploaded_by, uploaded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [id, f.category, name, mime, f.data.length, sha, f.data, user.id, now],
    );
    await audit(q, {
      action: 'dispute.evidence_added',
      userId: user.id,
      username: user.username,
      merId: r.mer_id,
      target: String(id),
      detail: { file: name, category: f.category, size: f.data.length, sha256: sha },
      ...meta,
    });
    return { id: Number(rows[0].id), category: f.category as EvidenceCategory, fileName: name, mime, size: f.data.length, sha256: sha, uploadedAt: now.toISOString(), submitted: false };
  });
}

/** Removes a draft evidence file; submitted evidence is immutable. */
export async function removeEvidence(deps: Deps, user: Who, id: number, evidenceId: number, meta: Meta = {}): Promise<void> {
  await deps.db.tx(async (q) => {
    const r = await rowOf(q, id, user.scope, true);
    const { rows } = await q.query<{ submitted: boolean; file_name: string }>('SELECT submitted, file_name FROM dispute_evidence WHERE id = $1 AND dispute_id = $2', [evidenceId, id]);
    if (!rows[0]) throw new AppError(Code.NOT_FOUND, 'notFound', {}, 404);
    if (rows[0].submitted) throw new AppError(Code.CONFLICT, 'disputeEvidenceLocked', {}, 409);
    assertAnswerable(normalise(r), deps.clock.now());
    await q.query('DELETE FROM dispute_evidence WHERE id = $1 AND NOT submitted', [evidenceId]);
    await audit(q, { action: 'dispute.evidence_removed', userId: user.id, username: user.username, merId: r.mer_id, target: String(id), detail: { file: rows[0].file_name }, ...meta });
  });
}

/** An evidence file's content (download), audited. */
export async function evidenceFile(deps: Deps, user: Pick<SessionUser, 'id' | 'username' | 'scope'>, id: number, evidenceId: number) {
  return deps.db.tx(async (q) => {
    const r = await rowOf(q, id, user.scope);
    const { rows } = await q.query<{ file_name: string; mime: string; content: Buffer }>('SELECT file_name, mime, content FROM dispute_evidence WHERE id = $1 AND dispute_id = $2', [evidenceId, id]);
    if (!rows[0]) throw new AppError(Code.NOT_FOUND, 'notFound', {}, 404);
    await audit(q, { action: 'dispute.evidence_downloaded', userId: user.id, username: user.username, merId: r.mer_id, target: String(id), detail: { file: rows[0].file_name } });
    return rows[0];
  });
}

/** Saves the written statement as a draft. */
export async function saveStatement(deps: Deps, user: Who, id: number, statement: string, meta: Meta = {}): Promise<void> {
  if (statement.length > STATEMENT_MAX) throw new AppError(Code.BAD_REQUEST, 'disputeStatementTooLong', { max: STATEMENT_MAX }, 400, { field: 'statement' });
  await deps.db.tx(async (q) => {
    const r = await rowOf(q, id, user.scope, true);
    assertAnswerable(normalise(r), deps.clock.now());
    await q.query('UPDATE dispute SET statement = $2, updated_at = $3 WHERE id = $1', [id, statement, deps.clock.now()]);
    await audit(q, { action: 'dispute.draft_saved', userId: user.id, username: user.username, merId: r.mer_id, target: String(id), detail: { length: statement.length }, ...meta });
  });
}
