/** The export queue's worker: claims a queued export, writes its file (heartbeat, retries), audits it; woken by a new job. */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { Deps } from '../../plugins/context';
import { metrics } from '../../plugins/metrics';
import { beat, claimNext, fail, failExhausted, finish, type ExportFileRow } from './export.repo';
import { auditExport, ExportAudit } from './export.audit';
import { contextOf, exportDir, exportSource, writeSourceExport } from './export.sources';

/**
 * How long a queued export waits for the read replica to replay every write made before the job
 * started (the refund just made must be in the file) before it reads the primary instead.
 */
const EXPORT_REPLICA_WAIT_MS = 2000;

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
export function wake(deps: Deps) {
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
