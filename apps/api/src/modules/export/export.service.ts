import { Transform } from 'node:stream';
import type { Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { badRequest, forbidden } from '../../lib/errors';
import type { ExportFormat } from './export.types';
import { insertExport, type ExportFileRow } from './export.repo';
import { auditExport, ExportAudit } from './export.audit';
import { CONTENT_TYPE, contextOf, exportSource, stamp, writeSourceExport } from './export.sources';
import { wake } from './export.worker';

export { contentTypeOf, contextOf, disposition, exportDir, exportSource, registerExportSource, stamp, writeSourceExport } from './export.sources';
export { drainExports, runNextExport, startExportWorker, writeExportRow } from './export.worker';

export interface EnqueueInput {
  userId: number;
  merId: string;
  /** The session's merchant scope: what the export may read. */
  scope: string[];
  permissions: string[];
  kind: string;
  params: unknown;
  lang: Language;
  tzOffset: number;
  format?: ExportFormat;
  /** Asked through /v1 with this API key: the key owns the file and its audit entry names the key (issue 47). */
  apiKeyId?: number;
}

/** Queues an export as a durable job; the worker writes it. Returns the file row (status queued). */
export async function enqueueExport(deps: Deps, input: EnqueueInput): Promise<ExportFileRow> {
  const source = exportSource(input.kind);
  const need = ([] as string[]).concat(source.permission);
  if (!need.some((p) => input.permissions.includes(p))) throw forbidden();
  const params = source.parse(input.params);
  const format = input.format ?? 'xlsx';
  const ctx = contextOf(deps, { lang: input.lang, tzOffset: input.tzOffset, scope: input.scope, userId: input.userId });
  const fileName = `${source.fileName(ctx, params)}_${stamp(deps.clock.now(), input.tzOffset)}.${format}`;
  // The key's claim in the same transaction as the row: the worker never writes (and audits) a key's file before it is known as the key's.
  const row = await deps.db.tx(async (q) => {
    const r = await insertExport(q, { ...input, params, format, fileName });
    if (input.apiKeyId !== undefined) await q.query('INSERT INTO api_key_export (export_id, key_id) VALUES ($1, $2)', [r.id, input.apiKeyId]);
    return r;
  });
  wake(deps);
  return row;
}

/** Writes one export straight into `out` (the synchronous file download). */
export async function streamExport(
  deps: Deps,
  v: { kind: string; params: unknown; lang: Language; tzOffset: number; scope: string[]; userId: number; format: ExportFormat; meta?: { ip?: string; userAgent?: string } },
): Promise<{ stream: Transform; fileName: string; contentType: string }> {
  const source = exportSource(v.kind);
  let params: unknown;
  try {
    params = source.parse(v.params);
  } catch (e) {
    throw e instanceof Error && 'code' in e ? e : badRequest(String(e));
  }
  const ctx = contextOf(deps, v);
  const fileName = `${source.fileName(ctx, params)}_${stamp(deps.clock.now(), v.tzOffset)}.${v.format}`;
  // The download's first bytes are held back until HOLD_BYTES are ready or the file is complete.
  // A failure before then throws here: the caller answers with the envelope, no file header sent.
  // A failure after destroys the stream: Fastify aborts the connection, so the client sees a
  // broken download, never a clean 200 with a short file (issue 10, finding 6).
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let held = 0;
  const stream = new Transform({
    readableHighWaterMark: HOLD_BYTES * 2,
    writableHighWaterMark: HOLD_BYTES * 2,
    transform(chunk: Buffer, _enc, cb) {
      held += chunk.length;
      if (held >= HOLD_BYTES) release();
      cb(null, chunk);
    },
    flush(cb) {
      release();
      cb();
    },
  });
  const writing = writeSourceExport(source, ctx, params, v.format, stream);
  // Audited once the file is written (issue 28): its filters, merchants and row count; a download
  // that broke off is an entry too, with the reason.
  const entry = (outcome: 'success' | 'failure', extra: Record<string, unknown>) =>
    auditExport(deps.db, {
      action: ExportAudit.download,
      userId: v.userId,
      outcome,
      target: fileName,
      detail: { kind: v.kind, format: v.format, params, scope: v.scope, ...extra },
      ip: v.meta?.ip,
      userAgent: v.meta?.userAgent,
    }).catch((err: unknown) => process.emitWarning(`export audit not written: ${String(err)}`));
  writing.then(
    (rows) => entry('success', { rows }),
    (err: unknown) => entry('failure', { error: String(err instanceof Error ? err.message : err).slice(0, 200) }),
  );
  try {
    await Promise.race([released, writing]);
  } catch (err) {
    stream.destroy();
    throw err;
  }
  writing.catch((err) => stream.destroy(err instanceof Error ? err : new Error(String(err))));
  return { stream, fileName, contentType: CONTENT_TYPE[v.format] };
}

/** Bytes of a streamed download held back before the first is sent (see streamExport). */
export const HOLD_BYTES = 64 * 1024;
