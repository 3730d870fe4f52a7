import type { PblAttachmentType } from '@portal/contract';

/**
 * What a file really is, from its first bytes (magic numbers), never from its name:
 * PDF `%PDF-`; PNG `89 50 4E 47 0D 0A 1A 0A`; JPEG `FF D8 FF`; XLSX a ZIP (`PK 03 04`) holding
 * `[Content_Types].xml` and an `xl/` part; XLS an OLE2 compound file (`D0 CF 11 E0 A1 B1 1A E1`);
 * CSV plain text (no NUL or other control bytes, valid UTF-8 or a single-byte/GB text without
 * binary control codes). Anything else is null.
 */
export function sniffFileType(buf: Buffer): PblAttachmentType | null {
  if (buf.length === 0) return null;
  const starts = (sig: number[]) => sig.every((b, i) => buf[i] === b);
  if (buf.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpg';
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'xls';
  if (starts([0x50, 0x4b, 0x03, 0x04])) return isXlsxZip(buf) ? 'xlsx' : null;
  return isText(buf) ? 'csv' : null;
}

/** A ZIP is an XLSX when its local file headers name `[Content_Types].xml` and a part under `xl/`. */
function isXlsxZip(buf: Buffer): boolean {
  let hasTypes = false;
  let hasXl = false;
  let off = 0;
  // Walk the local file headers (PK\3\4): name length at +26, extra length at +28, name at +30.
  for (let n = 0; n < 2000 && off + 30 <= buf.length && buf.readUInt32LE(off) === 0x04034b50; n++) {
    const flags = buf.readUInt16LE(off + 6);
    const compSize = buf.readUInt32LE(off + 18);
    const nameLen = buf.readUInt16LE(off + 26);
    const extraLen = buf.readUInt16LE(off + 28);
    const name = buf.subarray(off + 30, off + 30 + nameLen).toString('utf8');
    if (name === '[Content_Types].xml') hasTypes = true;
    if (name.startsWith('xl/')) hasXl = true;
    if (hasTypes && hasXl) return true;
    // With a data descriptor (flag bit 3) the size is not in the header: fall back to a scan.
    if (flags & 0x08) break;
    off += 30 + nameLen + extraLen + compSize;
  }
  if (hasTypes && hasXl) return true;
  const s = buf.toString('latin1');
  return s.includes('[Content_Types].xml') && /xl\/[A-Za-z]/.test(s);
}

/** Text a spreadsheet would read as CSV: no NUL, no C0 control bytes but tab, CR, LF (and FF/ESC-free). */
function isText(buf: Buffer): boolean {
  const n = Math.min(buf.length, 64 * 1024);
  for (let i = 0; i < n; i++) {
    const b = buf[i];
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return false;
    if (b === 0x7f) return false;
  }
  return true;
}

export const CONTENT_TYPES: Record<PblAttachmentType, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  csv: 'text/csv; charset=utf-8',
};
