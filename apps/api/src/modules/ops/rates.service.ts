import { Code, type Language, type OpsRatePropose } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import type { Meta } from '../user';
import { listRates, parseRateRow, rateHistory, saveRates, settledWith, trimRate } from '../payments';
import type { Operator } from './ops.auth';

/**
 * The back office's exchange rates (issue 46, docs/backoffice.md "Exchange rates"): the rates in
 * force, each pair's history of a day, and a rate entered under four eyes — one operator proposes
 * (a request), another approves it; only then is it stored, through the provider API's rules
 * (saveRates: a changed rate only as a correction; settled money never changes).
 */
const OpsRatesAudit = { propose: 'ops.fx_rate.propose', decide: 'ops.fx_rate.decide' } as const;

type Actor = Pick<Operator, 'id' | 'username'>;
const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

interface RequestRow {
  id: string;
  rate_date: string;
  from_cur: string;
  to_cur: string;
  rate: string;
  correction: boolean;
  note: string | null;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  proposed_by: number;
  proposed_by_name: string;
  proposed_at: Date;
  decided_by_name: string | null;
  decided_at: Date | null;
  decision_reason: string | null;
  entry_id: string | null;
  current_rate: string | null;
  settled: number | null;
}
const view = (r: RequestRow) => ({
  id: Number(r.id),
  date: r.rate_date,
  from: r.from_cur.trim(),
  to: r.to_cur.trim(),
  rate: trimRate(r.rate),
  correction: r.correction,
  note: r.note,
  status: r.status,
  proposedBy: r.proposed_by_name,
  proposedAt: iso(r.proposed_at)!,
  decidedBy: r.decided_by_name,
  decidedAt: iso(r.decided_at),
  reason: r.decision_reason,
  entryId: r.entry_id === null ? null : Number(r.entry_id),
  currentRate: r.current_rate === null ? null : trimRate(r.current_rate),
  settledWithCurrent: r.settled ?? 0,
});
const REQUESTS = `
  SELECT q.id, q.rate_date::text AS rate_date, q.from_cur, q.to_cur, q.rate::text AS rate, q.correction, q.note, q.status, q.proposed_by, p.username AS proposed_by_name,
         q.proposed_at, d.username AS decided_by_name, q.decided_at, q.decision_reason, q.entry_id, r.rate::text AS current_rate,
         (SELECT count(*)::int FROM txn x WHERE x.fx_rate_id = r.entry_id) AS settled
    FROM fx_rate_request q JOIN ops_operator p ON p.id = q.proposed_by LEFT JOIN ops_operator d ON d.id = q.decided_by
    LEFT JOIN fx_rate r ON r.rate_date = q.rate_date AND r.from_cur = q.from_cur AND r.to_cur = q.to_cur`;

/** The rates in force of a range (newest first) and the requests waiting for a second operator. */
export async function listOpsRates(deps: Deps, f: { from: string; to: string; pair?: string }) {
  const pair = f.pair ? { from: f.pair.slice(0, 3), to: f.pair.slice(4) } : undefined;
  const rates = await listRates(deps.db, { from: f.from, to: f.to, pair });
  const { rows } = await deps.db.query<RequestRow>(`${REQUESTS} WHERE q.status = 'PENDING' ORDER BY q.proposed_at DESC, q.id DESC LIMIT 200`);
  return { rates, pending: rows.map(view) };
}

/** Every version of a pair's rate of a day and every request made for it. */
export async function opsRateHistory(deps: Deps, date: string, from: string, to: string) {
  const versions = await rateHistory(deps.db, date, from, to);
  const { rows } = await deps.db.query<RequestRow>(`${REQUESTS} WHERE q.rate_date = $1 AND q.from_cur = $2 AND q.to_cur = $3 ORDER BY q.id`, [date, from, to]);
  return { date, from, to, versions, requests: rows.map(view) };
}

/**
 * An operator proposes a rate (new, or a correction of the one in force). Checked as the provider
 * API checks a row, and against the rate in force: another figure must be a correction, the same
 * figure changes nothing (refused). Stored nowhere until a second operator approves.
 */
export async function proposeRate(deps: Deps, input: OpsRatePropose, by: Actor, meta: Meta) {
  const row = parseRateRow({ date: input.date, from: input.from, to: input.to, rate: input.rate, correction: input.correction }, { now: deps.clock.now(), platformTz: deps.config.platformTz });
  return deps.db.tx(async (q) => {
    const cur = (
      await q.query<{ rate: string; same: boolean; entry_id: string }>(
        'SELECT rate::text AS rate, rate = $4::numeric AS same, entry_id FROM fx_rate WHERE rate_date = $1 AND from_cur = $2 AND to_cur = $3',
        [row.date, row.from, row.to, row.rate],
      )
    ).rows[0];
    if (cur?.same) throw new AppError(Code.CONFLICT, 'fxRequestRefused', { reason: `${row.from}→${row.to} ${row.date} = ${trimRate(cur.rate)}` }, 409, { field: 'rate' });
    if (cur && !row.correction) throw new AppError(Code.CONFLICT, 'fxRateExists', { date: row.date, from: row.from, to: row.to, rate: trimRate(cur.rate) }, 409, { field: 'correction' });
    const { rows } = await q.query<{ id: string }>(
      `INSERT INTO fx_rate_request (rate_date, from_cur, to_cur, rate, correction, note, proposed_by, proposed_at) VALUES ($1, $2, $3, $4::numeric, $5, $6, $7, $8) RETURNING id`,
      [row.date, row.from, row.to, row.rate, !!cur, input.note || null, by.id, deps.clock.now()],
    );
    const id = Number(rows[0].id);
    const settled = cur ? await settledWith(q, Number(cur.entry_id)) : 0;
    await audit(q, {
      action: OpsRatesAudit.propose,
      operatorId: by.id,
      username: by.username,
      target: `fx-rate-request:${id}`,
      detail: { date: row.date, pair: `${row.from}>${row.to}`, rate: row.rate, correction: !!cur, current: cur ? trimRate(cur.rate) : null, settledWithCurrent: settled },
      ...meta,
    });
    return { id, status: 'PENDING' as const, currentRate: cur ? trimRate(cur.rate) : null, settledWithCurrent: settled };
  });
}

/**
 * A second operator approves (the rate is stored: a new version, source backoffice, ref the
 * request) or rejects a pending request with a reason. Four eyes: the proposer may not decide it
 * (403). Checked and written in one transaction holding the request's row.
 */
export async function decideRate(deps: Deps, id: number, decision: 'APPROVED' | 'REJECTED', reason: string, by: Actor, lang: Language, meta: Meta) {
  return deps.db.tx(async (q) => {
    const { rows } = await q.query<{ id: string; rate_date: string; from_cur: string; to_cur: string; rate: string; correction: boolean; status: string; proposed_by: number }>(
      'SELECT id, rate_date::text AS rate_date, from_cur, to_cur, rate::text AS rate, correction, status, proposed_by FROM fx_rate_request WHERE id = $1 FOR UPDATE',
      [id],
    );
    const r = rows[0];
    if (!r) throw notFound();
    if (r.status !== 'PENDING') throw new AppError(Code.CONFLICT, 'fxRequestNotPending', {}, 409);
    if (r.proposed_by === by.id) throw new AppError(Code.FORBIDDEN, 'opsFourEyes', {}, 403);
    let result: Awaited<ReturnType<typeof saveRates>>['results'][number] | null = null;
    if (decision === 'APPROVED') {
      const row = { date: r.rate_date, from: r.from_cur.trim(), to: r.to_cur.trim(), rate: r.rate, correction: r.correction };
      const out = await saveRates(q, [row], { source: 'backoffice', ref: `request:${id}`, actor: { username: by.username, operatorId: by.id }, lang });
      result = out.results[0];
      // The rate in force changed since the proposal (another way in stored one): decide again on a fresh request.
      if (result.status === 'rejected' || result.status === 'unchanged')
        throw new AppError(Code.CONFLICT, 'fxRequestRefused', { reason: result.status === 'unchanged' ? `${row.from}→${row.to} ${row.date} = ${trimRate(r.rate)}` : result.msg }, 409);
    }
    await q.query('UPDATE fx_rate_request SET status = $2, decided_by = $3, decided_at = $4, decision_reason = $5, entry_id = $6 WHERE id = $1', [
      id,
      decision,
      by.id,
      deps.clock.now(),
      reason,
      result?.entryId ?? null,
    ]);
    await audit(q, {
      action: OpsRatesAudit.decide,
      operatorId: by.id,
      username: by.username,
      target: `fx-rate-request:${id}`,
      detail: {
        decision,
        reason,
        date: r.rate_date,
        pair: `${r.from_cur.trim()}>${r.to_cur.trim()}`,
        rate: trimRate(r.rate),
        entryId: result?.entryId ?? null,
        settledWithPrevious: result?.settledWithPrevious ?? 0,
      },
      ...meta,
    });
    return { id, status: decision, entryId: result?.entryId ?? null, msg: result?.msg ?? null, settledWithPrevious: result?.settledWithPrevious ?? 0 };
  });
}
