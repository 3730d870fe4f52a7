import type { Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { DISPUTE_KINDS, DISPUTE_STATES, OPEN_STATES, type DisputeKind, type DisputeState } from './disputes.machine';
import { SELECT, viewOf, type DisputeFilter, type DisputeView, type Joined } from './disputes.view';

export { daysLeftOf, viewOf, zoneOf, type DisputeFilter, type DisputeView, type EvidenceView, type Meta, type Who } from './disputes.view';
export { disputeDetail, opsDisputeDetail, type DisputeDetail } from './disputes.detail';
export { EVIDENCE_MAX_BYTES, EVIDENCE_MAX_FILES, STATEMENT_MAX, addEvidence, assertDisputeVisible, evidenceFile, evidenceMime, removeEvidence, saveStatement } from './disputes.evidence';
export { acceptDispute, enterOutcome, expireOverdue, resendDueOperations, sendDisputeOperation, submitDispute } from './disputes.answer';

function where(f: DisputeFilter, scope: string[], tz: string): { sql: string; params: unknown[] } {
  const params: unknown[] = [scope];
  const c = ['d.mer_id = ANY($1::text[])'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    c.push(sql.replace('?', `$${params.length}`));
  };
  if (f.merId) add('d.mer_id = ?', f.merId);
  if (f.state?.length) add('d.state = ANY(?::text[])', f.state);
  if (f.kind?.length) add('d.kind = ANY(?::text[])', f.kind);
  if (f.reasonCode) add('d.reason_code = ?', f.reasonCode);
  if (f.brand) add('d.brand = ?', f.brand.toLowerCase());
  if (f.amountMin !== undefined) add('d.amount >= ?', f.amountMin);
  if (f.amountMax !== undefined) add('d.amount <= ?', f.amountMax);
  if (f.deadlineBefore) add(`d.deadline < ((?::date + 1)::timestamp AT TIME ZONE '${tz.replace(/'/g, '')}')`, f.deadlineBefore);
  if (f.beginDate) add(`d.opened_at >= (?::date::timestamp AT TIME ZONE '${tz.replace(/'/g, '')}')`, f.beginDate);
  if (f.endDate) add(`d.opened_at < ((?::date + 1)::timestamp AT TIME ZONE '${tz.replace(/'/g, '')}')`, f.endDate);
  return { sql: c.join(' AND '), params };
}

/** The inbox: the caller's merchants' disputes, open ones first, by deadline (soonest first). */
export async function listDisputes(deps: Deps, scope: string[], f: DisputeFilter, lang: Language, tz: string) {
  if (!scope.length) return { content: [] as DisputeView[], totalElements: 0 };
  const w = where(f, scope, tz);
  const size = Math.min(Math.max(f.size ?? 20, 1), 100);
  const page = Math.max(f.page ?? 1, 1);
  const q = deps.db.read ?? deps.db;
  const [rows, n] = await Promise.all([
    q.query<Joined>(
      `${SELECT} WHERE ${w.sql.replaceAll('d.', 'd.')}
        ORDER BY (d.state IN ('needs_response', 'under_review')) DESC, d.deadline, d.id LIMIT ${size} OFFSET ${(page - 1) * size}`,
      w.params,
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM dispute d WHERE ${w.sql}`, w.params),
  ]);
  const now = deps.clock.now();
  return { content: rows.rows.map((r) => viewOf(r, lang, tz, now)), totalElements: n.rows[0].n };
}

/** Keyset page for /v1: by id descending after `cursor`. */
export async function pageDisputes(deps: Deps, scope: string[], o: { cursor?: number; limit: number; state?: DisputeState }, tz: string) {
  const params: unknown[] = [scope, o.cursor ?? null, o.limit + 1, o.state ?? null];
  const { rows } = await deps.db.query<Joined>(
    `${SELECT} WHERE d.mer_id = ANY($1::text[]) AND ($2::bigint IS NULL OR d.id < $2) AND ($4::text IS NULL OR d.state = $4)
      ORDER BY d.id DESC LIMIT $3`,
    params,
  );
  const now = deps.clock.now();
  const more = rows.length > o.limit;
  const page = rows.slice(0, o.limit).map((r) => viewOf(r, 'en', tz, now));
  return { data: page, hasMore: more, nextCursor: more ? String(page[page.length - 1].id) : null };
}

/** Counts per state of the caller's merchants' disputes (the dashboard), plus those due within 7 days. */
export async function stateCounts(deps: Deps, scope: string[]): Promise<Record<DisputeState, number> & { dueSoon: number }> {
  const out = Object.fromEntries(DISPUTE_STATES.map((s) => [s, 0])) as Record<DisputeState, number>;
  if (!scope.length) return { ...out, dueSoon: 0 };
  const { rows } = await deps.db.query<{ state: DisputeState; n: number; soon: number }>(
    `SELECT state, count(*)::int AS n, count(*) FILTER (WHERE state = 'needs_response' AND deadline < $2::timestamptz + interval '7 days')::int AS soon
       FROM dispute WHERE mer_id = ANY($1::text[]) GROUP BY state`,
    [scope, deps.clock.now()],
  );
  let dueSoon = 0;
  for (const r of rows) {
    out[r.state] = r.n;
    dueSoon += r.soon;
  }
  return { ...out, dueSoon };
}

/** Back office: every merchant's disputes (provider-wide), same filters. */
export async function listAllDisputes(deps: Deps, f: DisputeFilter, lang: Language) {
  const { rows } = await deps.db.query<{ mer_id: string }>('SELECT DISTINCT mer_id FROM dispute');
  return listDisputes(
    deps,
    rows.map((r) => r.mer_id),
    f,
    lang,
    deps.config.platformTz,
  );
}

export const isKind = (s: string): s is DisputeKind => (DISPUTE_KINDS as readonly string[]).includes(s);
export const OPEN = OPEN_STATES;
