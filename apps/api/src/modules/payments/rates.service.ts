import { Code, CURRENCY_EXPONENT, type Language } from '@portal/contract';
import type { Db, Queryable } from '../../db/db';
import { audit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/messages';
import { addDays, isDate, platformDate } from './time';

/**
 * Exchange rates (issue 46, docs/integration.md "Exchange rates"): the rate of one unit of `from`
 * in `to` (major units) for a day of the platform zone. Three ways in — the provider API, the
 * inbox's rates file, the back office under four eyes — and one way to store them (saveRates). The
 * settlement run of date D converts with the pair's rate in force on D (the rate of D, else the
 * latest of the 31 days before: settle.sql.ts RATES) and records the rate and its version
 * (fx_rate_entry id) on every converted transaction.
 *
 * The correction rule: a rate for a (day, pair) that exists is replaced only by a row that says
 * `correction: true` (a plain resend of another figure is refused, so a late retry of an old
 * message can never undo a correction). A correction is a new version; the earlier one stays in the
 * history. Settled money never changes: transactions already settled keep the rate and version they
 * were converted with; the correction converts only what settles after it. The answer says how many
 * settled transactions keep the earlier rate, so the change is never silent (an adjustment, if money
 * must move, is a manual entry).
 */

/** A rate as sent: a decimal string, up to 12 integer and 12 fractional digits, above zero. */
const RATE_RE = /^(0|[1-9]\d{0,11})(\.\d{1,12})?$/;
export const MAX_RATE_ROWS = 500;
/** Rows of one inbox rates file (a day's pairs; stored in one transaction). */
export const MAX_RATE_FILE_ROWS = 10_000;

export type RateSource = 'api' | 'file' | 'backoffice';
export interface RateRow {
  date: string;
  from: string;
  to: string;
  rate: string;
  correction: boolean;
}
export type RateStatus = 'created' | 'corrected' | 'unchanged' | 'rejected';
export interface RateResult {
  index: number;
  date: string | null;
  from: string | null;
  to: string | null;
  status: RateStatus;
  code: number;
  msg: string;
  field?: string;
  /** The version now in force (created, corrected, unchanged). */
  entryId?: number;
  /** A correction: the rate it replaced, and how many settled transactions keep that one. */
  previousRate?: string;
  settledWithPrevious?: number;
}

const fail = (key: Parameters<typeof t>[1], params: Record<string, string | number>, field?: string) => new AppError(Code.BAD_REQUEST, key, params, 400, field ? { field } : null);

/** The last rate date accepted: tomorrow in the platform zone (a provider publishes the next day's rates the evening before). */
const lastRateDate = (now: Date, tz: string) => addDays(platformDate(now, tz), 1);

/** Strict parsing of one row ({date, from, to, rate, correction?}); throws an AppError naming the field. */
export function parseRateRow(raw: unknown, o: { now: Date; platformTz: string }): RateRow {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw fail('fxRowInvalid', { detail: 'an object {date, from, to, rate}' });
  const r = raw as Record<string, unknown>;
  const extra = Object.keys(r).filter((k) => !['date', 'from', 'to', 'rate', 'correction'].includes(k));
  if (extra.length) throw fail('fxRowInvalid', { detail: `unknown field ${extra[0]}` }, extra[0]);
  if (typeof r.date !== 'string' || !isDate(r.date)) throw fail('fxDateInvalid', {}, 'date');
  const last = lastRateDate(o.now, o.platformTz);
  if (r.date > last) throw fail('fxDateFuture', { date: r.date, last }, 'date');
  for (const k of ['from', 'to'] as const) {
    if (typeof r[k] !== 'string' || !((r[k] as string) in CURRENCY_EXPONENT)) throw fail('payCurrencyUnknown', { currency: String(r[k] ?? '').slice(0, 8) }, k);
  }
  if (r.from === r.to) throw fail('fxSamePair', { currency: r.from as string }, 'to');
  if (typeof r.rate !== 'string' || !RATE_RE.test(r.rate) || !/[1-9]/.test(r.rate)) throw fail('fxRateInvalid', { rate: String(r.rate ?? '').slice(0, 32) }, 'rate');
  if (r.correction !== undefined && typeof r.correction !== 'boolean') throw fail('fxRowInvalid', { detail: 'correction is true or false' }, 'correction');
  return { date: r.date, from: r.from as string, to: r.to as string, rate: r.rate, correction: r.correction === true };
}

interface Stored {
  rate: string;
  entry_id: string;
}

/** `saveRates` in a transaction of its own (the provider API's batch: its rows stored together). */
export function receiveRates(db: Db, rows: (RateRow | AppError)[], o: Parameters<typeof saveRates>[2]): ReturnType<typeof saveRates> {
  return db.tx((q) => saveRates(q, rows, o));
}

/**
 * Stores parsed rows in the caller's transaction, in order, each answered on its own (a refused row
 * never loses the others). `rows[i]` is a parsed row or the AppError its parsing threw. Audited once
 * per call (who, source, counts).
 */
export async function saveRates(
  q: Queryable,
  rows: (RateRow | AppError)[],
  o: { source: RateSource; ref: string; actor: { username: string; operatorId?: number | null }; lang: Language },
): Promise<{ results: RateResult[]; created: number; corrected: number; unchanged: number; rejected: number }> {
  const results: RateResult[] = [];
  const seen = new Map<string, number>();
  for (const [index, row] of rows.entries()) {
    if (row instanceof AppError) {
      const field = (row.data as { field?: string } | null)?.field;
      results.push({ index, date: null, from: null, to: null, status: 'rejected', code: row.code, msg: t(o.lang, row.key, row.params), ...(field ? { field } : {}) });
      continue;
    }
    const head = { index, date: row.date, from: row.from, to: row.to };
    const key = `${row.date}|${row.from}|${row.to}`;
    if (seen.has(key)) {
      results.push({ ...head, status: 'rejected', code: Code.BAD_REQUEST, msg: t(o.lang, 'fxRowTwice', { first: seen.get(key)! }), field: 'date' });
      continue;
    }
    seen.set(key, index);
    const ins = await q.query<{ entry_id: string }>(
      `INSERT INTO fx_rate (rate_date, from_cur, to_cur, rate, source, source_ref) VALUES ($1, $2, $3, $4::numeric, $5, $6)
       ON CONFLICT (rate_date, from_cur, to_cur) DO NOTHING RETURNING entry_id`,
      [row.date, row.from, row.to, row.rate, o.source, o.ref],
    );
    if (ins.rows[0]) {
      results.push({ ...head, status: 'created', code: Code.OK, msg: t(o.lang, 'success'), entryId: Number(ins.rows[0].entry_id) });
      continue;
    }
    const cur = (
      await q.query<Stored & { same: boolean }>(`SELECT rate::text AS rate, entry_id, rate = $4::numeric AS same FROM fx_rate WHERE rate_date = $1 AND from_cur = $2 AND to_cur = $3 FOR UPDATE`, [
        row.date,
        row.from,
        row.to,
        row.rate,
      ])
    ).rows[0];
    if (cur.same) {
      results.push({ ...head, status: 'unchanged', code: Code.OK, msg: t(o.lang, 'success'), entryId: Number(cur.entry_id) });
      continue;
    }
    if (!row.correction) {
      results.push({ ...head, status: 'rejected', code: Code.CONFLICT, msg: t(o.lang, 'fxRateExists', { date: row.date, from: row.from, to: row.to, rate: trimRate(cur.rate) }), field: 'rate' });
      continue;
    }
    const settled = await settledWith(q, Number(cur.entry_id));
    const up = await q.query<{ entry_id: string }>(`UPDATE fx_rate SET rate = $4::numeric, source = $5, source_ref = $6 WHERE rate_date = $1 AND from_cur = $2 AND to_cur = $3 RETURNING entry_id`, [
      row.date,
      row.from,
      row.to,
      row.rate,
      o.source,
      o.ref,
    ]);
    results.push({
      ...head,
      status: 'corrected',
      code: Code.OK,
      msg: settled ? t(o.lang, 'fxCorrectedSettled', { n: settled, rate: trimRate(cur.rate) }) : t(o.lang, 'success'),
      entryId: Number(up.rows[0].entry_id),
      previousRate: trimRate(cur.rate),
      settledWithPrevious: settled,
    });
  }
  const count = (s: RateStatus) => results.filter((r) => r.status === s).length;
  const out = { results, created: count('created'), corrected: count('corrected'), unchanged: count('unchanged'), rejected: count('rejected') };
  if (out.created || out.corrected) {
    await audit(q, {
      action: 'fx.rates',
      username: o.actor.username,
      operatorId: o.actor.operatorId ?? null,
      target: o.ref,
      detail: {
        source: o.source,
        created: out.created,
        corrected: out.corrected,
        rows: results
          .filter((r) => r.status === 'created' || r.status === 'corrected')
          .slice(0, 50)
          .map((r) => ({ date: r.date, pair: `${r.from}>${r.to}`, status: r.status, entryId: r.entryId, previousRate: r.previousRate })),
      },
    });
  }
  return out;
}

/** How many settled transactions were converted with a rate version. */
export async function settledWith(q: Queryable, entryId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM txn WHERE fx_rate_id = $1', [entryId]);
  return rows[0].n;
}

/** "7.812500000000" → "7.8125" (numeric(24,12) as stored, shown as entered). */
export const trimRate = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

export interface RateView {
  date: string;
  from: string;
  to: string;
  rate: string;
  entryId: number;
  source: string;
  sourceRef: string | null;
  versions: number;
  settledCount: number;
}

/** Rates of a date range (newest first), optionally of one pair, with how many versions each has and how many transactions it converted. */
export async function listRates(q: Queryable, f: { from: string; to: string; pair?: { from: string; to: string } }): Promise<RateView[]> {
  const { rows } = await q.query<{ d: string; f: string; t: string; rate: string; entry_id: string; source: string; source_ref: string | null; versions: number; settled: number }>(
    `SELECT r.rate_date::text AS d, trim(r.from_cur) AS f, trim(r.to_cur) AS t, r.rate::text AS rate, r.entry_id, r.source, r.source_ref,
            (SELECT count(*)::int FROM fx_rate_entry e WHERE e.rate_date = r.rate_date AND e.from_cur = r.from_cur AND e.to_cur = r.to_cur) AS versions,
            (SELECT count(*)::int FROM txn x WHERE x.fx_rate_id = r.entry_id) AS settled
       FROM fx_rate r
      WHERE r.rate_date BETWEEN $1 AND $2 AND ($3::text IS NULL OR (r.from_cur = $3 AND r.to_cur = $4))
      ORDER BY r.rate_date DESC, r.from_cur, r.to_cur LIMIT 1000`,
    [f.from, f.to, f.pair?.from ?? null, f.pair?.to ?? null],
  );
  return rows.map((r) => ({
    date: r.d,
    from: r.f,
    to: r.t,
    rate: trimRate(r.rate),
    entryId: Number(r.entry_id),
    source: r.source,
    sourceRef: r.source_ref,
    versions: r.versions,
    settledCount: r.settled,
  }));
}

/** Every version of one pair's rate of a day (oldest first), with the transactions each converted. */
export async function rateHistory(q: Queryable, date: string, from: string, to: string) {
  const { rows } = await q.query<{ id: string; rate: string; source: string; source_ref: string | null; supersedes: string | null; created_at: Date; settled: number; current: boolean }>(
    `SELECT e.id, e.rate::text AS rate, e.source, e.source_ref, e.supersedes, e.created_at,
            (SELECT count(*)::int FROM txn x WHERE x.fx_rate_id = e.id) AS settled,
            coalesce((SELECT r.entry_id = e.id FROM fx_rate r WHERE r.rate_date = e.rate_date AND r.from_cur = e.from_cur AND r.to_cur = e.to_cur), false) AS current
       FROM fx_rate_entry e WHERE e.rate_date = $1 AND e.from_cur = $2 AND e.to_cur = $3 ORDER BY e.id`,
    [date, from, to],
  );
  return rows.map((r) => ({
    entryId: Number(r.id),
    rate: trimRate(r.rate),
    source: r.source,
    sourceRef: r.source_ref,
    supersedes: r.supersedes === null ? null : Number(r.supersedes),
    createdAt: new Date(r.created_at).toISOString(),
    settledCount: r.settled,
    current: r.current,
  }));
}

export { waitingForRate } from './rates.waiting';
