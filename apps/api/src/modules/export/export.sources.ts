/** The export sources and how one is written: the registry by kind, the files' folder, names and types, a source's context and its writer. */
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Language } from '@portal/contract';
import type { Reader } from '../../db/db';
import type { Deps } from '../../plugins/context';
import type { ExportContext, ExportFormat, ExportSource } from './export.types';
import { csvHead, outColumns, writeExport } from './export.writer';
import { writeChunkedCopyCsv, writeCopyCsv } from './export.copy';
import { formatInZone } from '../../lib/zone';
import { safeFileName } from '../../lib/filename';

const sources = new Map<string, ExportSource<any, any>>();

/** Plugs a row source in under `kind` (transactions, settle list, reports, pay by link …). */
export function registerExportSource<P, R>(kind: string, source: ExportSource<P, R>): void {
  sources.set(kind, source);
}
export function exportSource(kind: string): ExportSource<any, any> {
  const s = sources.get(kind);
  if (!s) throw new Error(`unknown export kind ${kind}`);
  return s;
}

export const exportDir = (deps: Deps) => path.join(deps.config.dataDir, 'files', 'exports');
export const CONTENT_TYPE: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};
export const contentTypeOf = (f: ExportFormat) => CONTENT_TYPE[f];
/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function disposition(raw: string): string {
  // No bidirectional override may disguise the name (issue 28): the one helper of every download.
  const name = safeFileName(raw) || 'download';
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
/** 'YYYYMMDD_HHmmss' of `d` in the user's zone (hours east of UTC). */
export const stamp = (d: Date, tz: number | string) => formatInZone(d, Number(tz)).replace(/[-:]/g, '').replace(' ', '_');

export function contextOf(deps: Deps, v: { lang: string; tzOffset: number | string; scope: string[]; userId: number }, read: Reader = deps.db.read): ExportContext {
  return { deps, read, lang: v.lang as Language, zone: Number(v.tzOffset), scope: v.scope, userId: v.userId };
}

/**
 * Writes one export of `source` into `out` and ends it; returns the row count. CSV from a source
 * that can (`copyCsv`) goes through COPY (export.copy.ts, the same bytes): on PostgreSQL one
 * `COPY … TO STDOUT`, on PGlite one COPY per key range of `opts.copyChunkRows` rows (default
 * COPY_CHUNK_ROWS); everything else through the JS writer. The queued job, the synchronous download
 * and the benchmark all write through here.
 */
export async function writeSourceExport<P, R>(
  source: ExportSource<P, R>,
  ctx: ExportContext,
  params: P,
  format: ExportFormat,
  out: Writable,
  onProgress?: (rows: number) => Promise<void> | void,
  opts: { copyChunkRows?: number } = {},
): Promise<number> {
  const columns = source.columns(ctx, params);
  const db = ctx.read;
  const copy = format === 'csv' && source.copyCsv ? source.copyCsv(ctx, params) : null;
  if (copy) {
    const head = () => csvHead(outColumns(columns, ctx.zone));
    if (db.kind === 'postgres' && db.copyOut) return writeCopyCsv(db, copy.sql, out, head(), onProgress);
    if (db.kind === 'pglite' && db.copyBlob && copy.keyset) return writeChunkedCopyCsv(db, copy.keyset, out, head(), onProgress, opts.copyChunkRows);
  }
  return writeExport(format, out, columns, ctx.zone, source.fileName(ctx, params), source.rows(ctx, params), onProgress);
}
