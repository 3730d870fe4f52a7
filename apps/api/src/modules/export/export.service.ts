import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Transform, type Writable } from 'node:stream';
import type { Language } from '@portal/contract';
import type { Reader } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { badRequest, forbidden } from '../../lib/errors';
import type { ExportContext, ExportFormat, ExportSource } from './export.types';
import { csvHead, outColumns, writeExport } from './export.writer';
import { writeChunkedCopyCsv, writeCopyCsv } from './export.copy';
import { formatInZone } from '../../lib/zone';
import { metrics } from '../../plugins/metrics';
import { beat, claimNext, fail, failExhausted, finish, insertExport, type ExportFileRow } from './export.repo';
import { safeFileName } from '../../lib/filename';
import { auditExport, ExportAudit } from './export.audit';

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
const CONTENT_TYPE: Record<ExportFormat, string> = {
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

export function contextOf(deps: Deps, v: { lang: string; tzOffset: number | string; scope: string[]; userId: number }, read: Reader = deps.db.read): ExportContext {
  return { deps, read, lang: v.lang as Language, zone: Number(v.tzOffset), scope: v.scope, userId: v.userId };
}

/**
 * How long a queued export waits for the read replica to replay every write made before the job
 * started (the refund just made must be in the file) before it reads the primary instead.
 */
const EXPORT_REPLICA_WAIT_MS = 2000;

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

/** Claims and writes the next queued export. False when there was none. */
export async function runNextExport(deps: Deps, inHand?: (id: number | null) => void): Promise<boolean> {
  await failExhausted(deps.db);
  const job = await claimNext(deps.db);
  if (!job) return false;
  inHand?.(job.id);
  try {
    await writeExportRow(deps, job);
  } finally {
    inHand?.(null);
  }
  return true;
}

/**
 * Writes the file of a claimed (running) export row and marks it ready or failed; resolves to the
 * row's final status. The queue worker and a scheduled report's run both write through here.
 */
export async function writeExportRow(deps: Deps, job: ExportFileRow): Promise<{ status: 'ready' | 'failed'; file?: string; error?: string }> {
  const dir = exportDir(deps);
  fs.mkdirSync(dir, { recursive: true });
  // A retry (a worker died part-way) first removes what an earlier attempt left of this job.
  removeJobFiles(dir, job.id);
  const file = path.join(dir, `${job.id}-${randomBytes(8).toString('hex')}.${job.format}`);
  const t0 = performance.now();
  try {
    const source = exportSource(job.kind);
    const params = source.parse(job.params);
    const read = await deps.db.read.caughtUp(EXPORT_REPLICA_WAIT_MS);
    const ctx = contextOf(deps, { lang: job.lang, tzOffset: job.tz_offset, scope: job.scope, userId: job.user_id }, read);
    const total = source.count ? await source.count(ctx, params) : 0;
    const out: Writable = fs.createWriteStream(file, { highWaterMark: 1 << 20 });
    let last = 0;
    const n = await writeSourceExport(source, ctx, params, job.format, out, async (done) => {
      const now = Date.now();
      if (now - last < 500) return;
      last = now;
      await beat(deps.db, job, total ? Math.min(99, Math.floor((done / total) * 100)) : 50);
    });
    const size = fs.statSync(file).size;
    const kept = await finish(deps.db, job, { path: path.basename(file), rowCount: n, sizeBytes: size });
    if (!kept) {
      // deleted by the user meanwhile, or no longer this attempt's (another attempt writes it)
      fs.rmSync(file, { force: true });
      return { status: 'failed', error: 'deleted' };
    }
    metrics.exports.inc({ result: 'ready' });
    metrics.exportRows.inc(n);
    metrics.exportBytes.inc(size);
    metrics.exportDuration.observe((performance.now() - t0) / 1000);
    await auditFile(deps, job, params, 'success', { rows: n });
    return { status: 'ready', file };
  } catch (err) {
    fs.rmSync(file, { force: true });
    const msg = err instanceof Error ? err.message : String(err);
    // an attempt that no longer owns the row leaves its outcome to the one that does
    if (!(await fail(deps.db, job, msg))) return { status: 'failed', error: msg };
    metrics.exports.inc({ result: 'failed' });
    await auditFile(deps, job, job.params, 'failure', { error: msg.slice(0, 200) });
    return { status: 'failed', error: msg };
  }
}

/** The audit entry of a written export file (queued, or a scheduled report's run): filters, merchants, row count. */
async function auditFile(deps: Deps, job: ExportFileRow, params: unknown, outcome: 'success' | 'failure', extra: Record<string, unknown>) {
  const scheduleId = (job as ExportFileRow & { schedule_id?: number | null }).schedule_id ?? null;
  // A file asked through /v1 is the key's: audited under the key's name, as its refunds are (issue 47).
  const { rows: key } = await deps.db.query<{ key_id: number; prefix: string }>('SELECT k.id AS key_id, k.prefix FROM api_key_export x JOIN api_key k ON k.id = x.key_id WHERE x.export_id = $1', [
    job.id,
  ]);
  await auditExport(deps.db, {
    action: ExportAudit.file,
    userId: job.user_id,
    outcome,
    target: job.file_name,
    ...(key[0] ? { username: `apikey:${key[0].prefix}` } : {}),
    detail: { kind: job.kind, format: job.format, params, scope: job.scope, fileId: job.id, ...(scheduleId ? { scheduleId } : {}), ...(key[0] ? { keyId: Number(key[0].key_id) } : {}), ...extra },
  });
}

/** Removes every file of export job `id` (its files are named `<id>-<random>.<format>`). */
function removeJobFiles(dir: string, id: number): void {
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) if (f.startsWith(`${id}-`)) fs.rmSync(path.join(dir, f), { force: true });
}

/** Runs every queued export now (tests, the command line). */
export async function drainExports(deps: Deps): Promise<number> {
  let n = 0;
  while (await runNextExport(deps)) n++;
  return n;
}

const wakers = new WeakMap<Deps, () => void>();
function wake(deps: Deps) {
  wakers.get(deps)?.();
}

/**
 * The export worker of a running server: polls every few seconds and at once when an export is
 * queued. Any number of server processes may run it (claims use SKIP LOCKED).
 */
export function startExportWorker(deps: Deps, log: { error: (o: unknown, m: string) => void }, pollMs = 3000): (graceMs?: number) => Promise<boolean> {
  let stopped = false;
  let busy = false;
  let timer: NodeJS.Timeout | undefined;
  /** Resolves when the loop in progress ends (shutdown waits for the file being written). */
  let idle: Promise<void> = Promise.resolve();
  let markIdle = () => {};
  let current: number | null = null;
  const tick = async () => {
    if (stopped || busy) return;
    busy = true;
    idle = new Promise((r) => (markIdle = r));
    try {
      while (!stopped && (await runNextExport(deps, (id) => (current = id))));
    } catch (err) {
      log.error({ err }, 'export worker');
    } finally {
      busy = false;
      markIdle();
      if (!stopped) timer = setTimeout(tick, pollMs);
    }
  };
  wakers.set(deps, () => {
    if (!busy) {
      clearTimeout(timer);
      setImmediate(tick);
    }
  });
  timer = setTimeout(tick, 50);
  // An export cut off by the end of the grace is handed back; another process writes it again from
  // the start (writeExportRow removes the earlier attempt's file).
  return async (graceMs?: number) => {
    stopped = true;
    clearTimeout(timer);
    wakers.delete(deps);
    if (graceMs === undefined) return false;
    let t: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([idle.then(() => false), new Promise<boolean>((r) => (t = setTimeout(() => r(true), graceMs)))]);
    clearTimeout(t);
    // Still writing: handed back (queued again, this attempt not counted) for another process.
    // Resolves to true when it was (the writer is abandoned: the process must not wait for it).
    if (timedOut && current !== null) {
      const r = await deps.db.query(`UPDATE export_file SET status = 'queued', attempts = greatest(attempts - 1, 0), progress = 0 WHERE id = $1 AND status = 'running'`, [current]);
      return r.rowCount > 0;
    }
    return false;
  };
}
