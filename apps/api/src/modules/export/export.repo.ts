import type { ExportFile } from '@portal/contract';
import type { Queryable } from '../../db/db';

export interface ExportFileRow {
  id: number;
  user_id: number;
  mer_id: string;
  kind: string;
  params: unknown;
  scope: string[];
  lang: string;
  tz_offset: string;
  format: 'xlsx' | 'csv';
  file_name: string;
  status: 'queued' | 'running' | 'ready' | 'failed';
  progress: number;
  row_count: number | null;
  size_bytes: number | null;
  path: string | null;
  error: string | null;
  attempts: number;
  created_at: Date;
  finished_at: Date | null;
  /**
   * The claim this row was read under: `started_at` in microseconds since the epoch, as text (a JS
   * Date would drop the microseconds). A hand-back or a stale take-over starts a new claim, so the
   * attempt that read an older one no longer owns the row (`finish`, `fail`, `beat`). Null while queued.
   */
  claim: string | null;
}

/** Who may write a running export's outcome: the attempt holding its current claim. */
export type ExportOwner = Pick<ExportFileRow, 'id' | 'claim'>;
/** The claim of a row, in SQL: see ExportFileRow.claim. */
const CLAIM = `(extract(epoch FROM started_at) * 1000000)::bigint::text`;

export function toExportFile(r: ExportFileRow): ExportFile {
  return {
    id: r.id,
    kind: r.kind,
    fileName: r.file_name,
    format: r.format,
    status: r.status,
    progress: r.progress,
    rowCount: r.row_count,
    sizeBytes: r.size_bytes,
    error: r.error,
    createdAt: new Date(r.created_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  };
}

export async function insertExport(
  q: Queryable,
  v: {
    userId: number;
    merId: string;
    kind: string;
    params: unknown;
    scope: string[];
    lang: string;
    tzOffset: number;
    format: string;
    fileName: string;
    /** A scheduled report's run (migration 016): written at once by the run, not queued. */
    scheduleId?: number;
    /** A run that could not start (e.g. the owner lost the permission): recorded as failed. */
    failed?: string;
  },
): Promise<ExportFileRow> {
  const status = v.failed ? 'failed' : v.scheduleId ? 'running' : 'queued';
  const { rows } = await q.query<ExportFileRow>(
    `INSERT INTO export_file (user_id, mer_id, kind, params, scope, lang, tz_offset, format, file_name, schedule_id, status, error,
                              attempts, heartbeat_at, started_at, finished_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12, CASE WHEN $11::text = 'queued' THEN 0 ELSE 1 END,
             CASE WHEN $11::text = 'running' THEN now() END, CASE WHEN $11::text = 'running' THEN now() END, CASE WHEN $11::text = 'failed' THEN now() END)
     RETURNING *, ${CLAIM} AS claim`,
    [v.userId, v.merId, v.kind, JSON.stringify(v.params), v.scope, v.lang, v.tzOffset, v.format, v.fileName, v.scheduleId ?? null, status, v.failed?.slice(0, 500) ?? null],
  );
  return rows[0];
}

/** Seconds after which a running export whose worker stopped beating is taken over. */
const STALE_SECONDS = 120;
const MAX_ATTEMPTS = 3;

/** Claims the oldest queued export (or a stale running one) for this worker. */
export async function claimNext(q: Queryable): Promise<ExportFileRow | undefined> {
  const { rows } = await q.query<ExportFileRow>(
    `UPDATE export_file SET status = 'running', attempts = attempts + 1, started_at = now(), heartbeat_at = now(), progress = 0
      WHERE id = (
        SELECT id FROM export_file
         WHERE deleted_at IS NULL AND attempts < ${MAX_ATTEMPTS}
           AND (status = 'queued' OR (status = 'running' AND heartbeat_at < now() - interval '${STALE_SECONDS} seconds'))
         ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING *, ${CLAIM} AS claim`,
  );
  return rows[0];
}

/** The attempt's progress; nothing when another attempt owns the row now (its heartbeat is its own). */
export async function beat(q: Queryable, job: ExportOwner, progress: number): Promise<void> {
  await q.query(`UPDATE export_file SET progress = $2, heartbeat_at = now() WHERE id = $1 AND status = 'running' AND ${CLAIM} = $3`, [job.id, progress, job.claim]);
}

/**
 * Marks the export ready; false when the user deleted it meanwhile, or when this attempt no longer
 * owns the row (handed back at a shutdown and claimed again, or taken over as stale — under
 * WORKERS=N by another process): the caller removes its file, the owner writes its own.
 */
export async function finish(q: Queryable, job: ExportOwner, v: { path: string; rowCount: number; sizeBytes: number }): Promise<boolean> {
  const r = await q.query(
    `UPDATE export_file SET status = 'ready', progress = 100, path = $2, row_count = $3, size_bytes = $4, finished_at = now(), error = NULL
      WHERE id = $1 AND deleted_at IS NULL AND status = 'running' AND ${CLAIM} = $5 RETURNING id`,
    [job.id, v.path, v.rowCount, v.sizeBytes, job.claim],
  );
  return r.rowCount > 0;
}

/** Marks the export failed; false (nothing changed) when this attempt no longer owns the row (see finish). */
export async function fail(q: Queryable, job: ExportOwner, error: string): Promise<boolean> {
  const r = await q.query(`UPDATE export_file SET status = 'failed', error = $2, finished_at = now() WHERE id = $1 AND status = 'running' AND ${CLAIM} = $3`, [job.id, error.slice(0, 500), job.claim]);
  return r.rowCount > 0;
}

/** Running exports that used up their attempts are marked failed (a worker died each time). */
export async function failExhausted(q: Queryable): Promise<void> {
  await q.query(
    `UPDATE export_file SET status = 'failed', error = 'interrupted', finished_at = now()
      WHERE status = 'running' AND attempts >= ${MAX_ATTEMPTS} AND heartbeat_at < now() - interval '${STALE_SECONDS} seconds'`,
  );
}

export async function listFiles(q: Queryable, userId: number, page: number, size: number) {
  const [list, count] = await Promise.all([
    q.query<ExportFileRow>(`SELECT * FROM export_file WHERE user_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ${size} OFFSET ${page * size}`, [userId]),
    q.query<{ n: number }>('SELECT count(*)::int AS n FROM export_file WHERE user_id = $1 AND deleted_at IS NULL', [userId]),
  ]);
  return { rows: list.rows, total: count.rows[0].n };
}

export async function findFile(q: Queryable, id: number, userId: number): Promise<ExportFileRow | undefined> {
  const { rows } = await q.query<ExportFileRow>('SELECT * FROM export_file WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL', [id, userId]);
  return rows[0];
}

export async function markDeleted(q: Queryable, id: number): Promise<void> {
  await q.query('UPDATE export_file SET deleted_at = now() WHERE id = $1', [id]);
}
