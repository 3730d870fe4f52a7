import type { Deps } from '../../plugins/context';

export interface AuditQuery {
  page: number;
  size: number;
  merId?: string;
  action?: string;
  actor?: string;
  operatorsOnly?: boolean;
  from: string;
  to: string;
}

/**
 * The audit log across merchants (issue 26): merchant users' and operators' entries, newest first,
 * filtered by merchant, action (prefix), actor name and a platform-day range (at most 92 days: the
 * log is partitioned by month, the range bounds what is read).
 */
export async function searchAudit(deps: Deps, q: AuditQuery) {
  const args: unknown[] = [q.from, q.to, deps.config.platformTz];
  const where = [`a.at >= ($1::date::timestamp AT TIME ZONE $3)`, `a.at < (($2::date + 1)::timestamp AT TIME ZONE $3)`];
  const arg = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  if (q.merId) where.push(`a.mer_id = ${arg(q.merId)}`);
  if (q.action) where.push(`a.action LIKE ${arg(`${q.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  if (q.actor) where.push(`lower(a.username) = lower(${arg(q.actor)})`);
  if (q.operatorsOnly) where.push('a.operator_id IS NOT NULL');
  const w = where.join(' AND ');
  const total = await deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log a WHERE ${w}`, args);
  const { rows } = await deps.db.query<{
    id: string;
    at: Date;
    username: string | null;
    operator_id: number | null;
    mer_id: string | null;
    action: string;
    outcome: string;
    target: string | null;
    detail: Record<string, unknown>;
    ip: string | null;
  }>(
    `SELECT a.id, a.at, a.username, a.operator_id, a.mer_id, a.action, a.outcome, a.target, a.detail, a.ip
       FROM audit_log a WHERE ${w} ORDER BY a.at DESC, a.id DESC LIMIT ${arg(q.size)} OFFSET ${arg(q.page * q.size)}`,
    args,
  );
  return {
    content: rows.map((r) => ({
      id: Number(r.id),
      at: new Date(r.at).toISOString(),
      actor: r.username,
      byOperator: r.operator_id !== null,
      merId: r.mer_id,
      action: r.action,
      outcome: r.outcome,
      target: r.target,
      detail: JSON.stringify(r.detail).slice(0, 2000),
      ip: r.ip,
    })),
    totalElements: total.rows[0].n,
  };
}
