/** The runs screen's queues: the export queue, the durable jobs and their retry, the gateway connections and their imports; and what the screen's files share. */
import { Code } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import type { Meta } from '../user';
import type { Operator } from './ops.auth';

export const OpsRunsAudit = { settleRerun: 'ops.settlement.rerun', jobRetry: 'ops.job.retry' } as const;

export type Actor = Pick<Operator, 'id' | 'username'>;
export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The export queue: merchants' exports and scheduled reports' files, newest first. */
export async function listExports(deps: Deps, status?: 'queued' | 'running' | 'ready' | 'failed') {
  const { rows } = await deps.db.query<{
    id: string;
    mer_id: string;
    mer_name: string;
    kind: string;
    format: string;
    status: string;
    username: string;
    schedule_id: number | null;
    created_at: Date;
    started_at: Date | null;
    finished_at: Date | null;
    size_bytes: string | null;
    row_count: string | null;
    attempts: number;
    error: string | null;
  }>(
    `SELECT e.id, e.mer_id, m.name AS mer_name, e.kind, e.format, e.status, u.username, e.schedule_id, e.created_at, e.started_at, e.finished_at,
            e.size_bytes, e.row_count, e.attempts, e.error
       FROM export_file e JOIN merchant m ON m.mer_id = e.mer_id JOIN app_user u ON u.id = e.user_id
      WHERE e.deleted_at IS NULL AND ($1::text IS NULL OR e.status = $1::text)
      ORDER BY (e.status IN ('queued', 'running')) DESC, e.created_at DESC, e.id DESC LIMIT 200`,
    [status ?? null],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    merId: r.mer_id,
    merName: r.mer_name,
    kind: r.kind,
    format: r.format,
    status: r.status as 'queued' | 'running' | 'ready' | 'failed',
    requestedBy: r.username,
    scheduled: r.schedule_id !== null,
    createdAt: iso(r.created_at)!,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    sizeBytes: r.size_bytes === null ? null : Number(r.size_bytes),
    rowCount: r.row_count === null ? null : Number(r.row_count),
    attempts: r.attempts,
    error: r.error ? r.error.slice(0, 500) : null,
  }));
}

/** Durable jobs (the job table): failed first, then the queue. The error is the runner's message. */
export async function listJobs(deps: Deps, status?: 'queued' | 'running' | 'done' | 'failed') {
  const { rows } = await deps.db.query<{
    id: string;
    kind: string;
    unique_key: string | null;
    status: string;
    attempts: number;
    run_at: Date;
    created_at: Date;
    finished_at: Date | null;
    error: string | null;
    progress: number;
  }>(
    `SELECT id, kind, unique_key, status, attempts, run_at, created_at, finished_at, error, progress FROM job
      WHERE ($1::text IS NULL OR status = $1::text) ORDER BY (status = 'failed') DESC, coalesce(finished_at, run_at) DESC, id DESC LIMIT 200`,
    [status ?? null],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    key: r.unique_key,
    status: r.status as 'queued' | 'running' | 'done' | 'failed',
    attempts: r.attempts,
    progress: r.progress,
    runAt: iso(r.run_at)!,
    createdAt: iso(r.created_at)!,
    finishedAt: iso(r.finished_at),
    error: r.error ? r.error.slice(0, 2000) : null,
  }));
}

/**
 * Retries a failed job: the same row (same kind, payload and unique key — its idempotency key) is
 * queued again with fresh attempts. Only a failed job: the compare-and-set in one statement makes
 * two operators' retries queue it once. Audited with its before/after.
 */
export async function retryJob(deps: Deps, id: number, by: Actor, meta: Meta) {
  return deps.db.tx(async (q) => {
    const cur = await q.query<{ status: string; attempts: number; error: string | null; kind: string; unique_key: string | null }>(
      'SELECT status, attempts, error, kind, unique_key FROM job WHERE id = $1 FOR UPDATE',
      [id],
    );
    const j = cur.rows[0];
    if (!j) throw notFound();
    if (j.status !== 'failed') throw new AppError(Code.CONFLICT, 'opsJobNotFailed', { status: j.status }, 409);
    await q.query(`UPDATE job SET status = 'queued', attempts = 0, error = NULL, run_at = $2, locked_by = NULL, locked_at = NULL, finished_at = NULL WHERE id = $1 AND status = 'failed'`, [
      id,
      deps.clock.now(),
    ]);
    await audit(q, {
      action: OpsRunsAudit.jobRetry,
      operatorId: by.id,
      username: by.username,
      target: `job:${id}`,
      detail: { kind: j.kind, key: j.unique_key, before: { status: j.status, attempts: j.attempts, error: j.error?.slice(0, 500) ?? null }, after: { status: 'queued', attempts: 0 } },
      ...meta,
    });
    return { id, kind: j.kind, key: j.unique_key, status: 'queued' as const };
  });
}

/** Gateway connections (migrations 030/031): merchants, keys, transactions, and the last file import's report. */
export async function listGateways(deps: Deps) {
  const { rows } = await deps.db.query<{
    id: string;
    name: string;
    merchants: string[];
    enabled: boolean;
    created_at: Date;
    keys: number;
    txns: string;
    last_txn: Date | null;
    imports: number;
    f_id: string | null;
    f_name: string | null;
    f_status: string | null;
    f_rows: number | null;
    f_acc: number | null;
    f_dup: number | null;
    f_rej: number | null;
    f_ok: boolean | null;
    f_msg: string | null;
    f_start: Date | null;
    f_end: Date | null;
    diffs: number;
  }>(
    `SELECT c.id, c.name, c.merchants, c.enabled, c.created_at,
            (SELECT count(*)::int FROM gateway_key k WHERE k.connection_id = c.id AND k.revoked_at IS NULL) AS keys,
            (SELECT count(*)::text FROM gateway_txn t WHERE t.connection_id = c.id) AS txns,
            (SELECT max(created_at) FROM gateway_txn t WHERE t.connection_id = c.id) AS last_txn,
            (SELECT count(*)::int FROM import_file f WHERE f.connection_id = c.id) AS imports,
            f.id AS f_id, f.file_name AS f_name, f.status AS f_status, f.rows_read AS f_rows, f.accepted AS f_acc, f.duplicate AS f_dup, f.rejected AS f_rej,
            f.control_ok AS f_ok, f.message AS f_msg, f.started_at AS f_start, f.finished_at AS f_end,
            (SELECT count(*)::int FROM recon_difference d WHERE d.connection_id = c.id) AS diffs
       FROM gateway_connection c
       LEFT JOIN LATERAL (SELECT * FROM import_file f WHERE f.connection_id = c.id ORDER BY f.started_at DESC, f.id DESC LIMIT 1) f ON true
      ORDER BY c.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    merchants: r.merchants,
    enabled: r.enabled,
    createdAt: iso(r.created_at)!,
    activeKeys: r.keys,
    txnCount: Number(r.txns),
    lastTxnAt: iso(r.last_txn),
    imports: r.imports,
    differences: r.diffs,
    lastImport:
      r.f_id === null
        ? null
        : {
            id: Number(r.f_id),
            fileName: r.f_name!,
            status: r.f_status!,
            rowsRead: r.f_rows!,
            accepted: r.f_acc!,
            duplicate: r.f_dup!,
            rejected: r.f_rej!,
            controlOk: r.f_ok,
            message: r.f_msg,
            startedAt: iso(r.f_start)!,
            finishedAt: iso(r.f_end),
          },
  }));
}
