import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Code, PBL_ATTACHMENT_MAX_BYTES, attachmentTypeOfName, type PblAttachmentType } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { newToken } from '../../lib/crypto';
import { safeFileName } from '../../lib/filename';
import { CONTENT_TYPES, sniffFileType } from './file-type';
import { findAttachment, insertAttachment, type AttachmentRow } from './attachment.repo';

export const filesRoot = (deps: Deps) => path.join(deps.config.dataDir, 'files');
const uploadError = () => new AppError(Code.BAD_REQUEST, 'pblUploadError', {}, 400);
const tooLarge = () => new AppError(Code.BAD_REQUEST, 'pblFileTooLarge', {}, 400);

/** A file name safe to store and to send back: no path, no control characters, at most 120 characters. */
function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = safeFileName(base).replace(/"/g, '').trim();
  if (clean.length <= 120) return clean;
  const ext = /\.[A-Za-z0-9]{1,5}$/.exec(clean)?.[0] ?? '';
  return clean.slice(0, 120 - ext.length) + ext;
}

/**
 * Reads the one multipart file of the request, at most 5 MiB (spec §5): larger → 'cannot exceed
 * 5M'. Its content decides its type (magic bytes), and the name's extension must agree, so a
 * renamed executable or a PNG called .pdf is refused.
 */
export async function receiveUpload(req: FastifyRequest): Promise<{ fileName: string; data: Buffer; kind: PblAttachmentType }> {
  if (!req.isMultipart()) throw uploadError();
  let part;
  try {
    part = await req.file({ limits: { fileSize: PBL_ATTACHMENT_MAX_BYTES, files: 1, fields: 10 } });
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw uploadError();
  }
  if (!part) throw uploadError();
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw uploadError();
  }
  if (part.file.truncated || data.length > PBL_ATTACHMENT_MAX_BYTES) throw tooLarge();
  const fileName = cleanFileName(part.filename ?? '');
  const declared = attachmentTypeOfName(fileName);
  if (!fileName || !declared) throw new AppError(Code.BAD_REQUEST, 'pblFileType', {}, 400);
  if (data.length === 0) throw uploadError();
  const actual = sniffFileType(data);
  if (actual !== declared) throw new AppError(Code.BAD_REQUEST, 'pblFileContent', { type: declared }, 400);
  return { fileName, data, kind: actual };
}

/** Stores an upload under DATA_DIR/files/paybylink/{merId}/ and records it; the key is the wire's `attachment`. */
export async function saveAttachment(deps: Deps, user: SessionUser, f: { fileName: string; data: Buffer; kind: PblAttachmentType }) {
  const key = newToken();
  const rel = path.join('paybylink', user.merId, key);
  const full = path.join(filesRoot(deps), rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  const tmp = `${full}.tmp`;
  fs.writeFileSync(tmp, f.data, { mode: 0o600 });
  fs.renameSync(tmp, full);
  try {
    await insertAttachment(deps.db, {
      key,
      merId: user.merId,
      userId: user.id,
      fileName: f.fileName,
      kind: f.kind,
      contentType: CONTENT_TYPES[f.kind],
      size: f.data.length,
      sha256: createHash('sha256').update(f.data).digest('hex'),
      storagePath: rel,
      now: deps.clock.now(),
    });
  } catch (err) {
    fs.rmSync(full, { force: true });
    throw err;
  }
  return { attachment: key, fileName: f.fileName, size: f.data.length, type: f.kind };
}

/** The stored file of an attachment the caller may see (404 otherwise). */
export async function openAttachment(deps: Deps, key: string, scope: string[]): Promise<{ row: AttachmentRow; full: string }> {
  const row = await findAttachment(deps.db, key, scope);
  if (!row) throw notFound();
  const root = filesRoot(deps);
  const full = path.resolve(root, row.storage_path);
  if (!full.startsWith(root + path.sep) || !fs.existsSync(full)) throw notFound();
  return { row, full };
}
