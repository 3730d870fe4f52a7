/**
 * The payout proof of one transfer (issue 49 §1, decision 061): the transfer's settlement row, then
 * every source's lines (`proof.sources.ts`), whose signed amounts add up to the amount sent to the
 * bank; and the rows behind one line, a page at a time, with their count and sum.
 */
import { toDecimal, type Language } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { PROOF_SOURCES, sourceOf, type ProofRowDb, type ProofSource } from './proof.sources';

/** A transfer's id (as /v1/transfers): settlement date, merchant, business line, currency, dot-joined. */
export const TRANSFER_ID_RE = /^(\d{4}-\d\d-\d\d)\.(\d{15})\.([A-Z0-9_]{1,20})\.([A-Z]{3})$/;

export interface TransferKey {
  date: string;
  merId: string;
  busLine: string;
  setCur: string;
}

export function parseTransferId(id: string): TransferKey | null {
  const m = TRANSFER_ID_RE.exec(id);
  if (!m || Number.isNaN(Date.parse(m[1]))) return null;
  return { date: m[1], merId: m[2], busLine: m[3], setCur: m[4] };
}

export const transferIdOf = (k: TransferKey) => `${k.date}.${k.merId}.${k.busLine}.${k.setCur}`;

interface TransferDb {
  txn_set_date: string;
  mer_id: string;
  mer_name: string;
  bus_line: string;
  set_cur: string;
  recon_search_date: string;
  remit_date: string | null;
  recon_set_amount: number;
  serv_amount: number;
  released_amount: number;
  real_trans_before_fee: number;
  tran_fee: number;
  real_trans_amount: number;
}

export interface ProofTransfer {
  id: string;
  merId: string;
  merName: string;
  busLine: string;
  currency: string;
  settleFrom: string;
  settleTo: string;
  remitDate: string | null;
  reconSetAmount: string;
  servAmount: string;
  releasedAmount: string;
  beforeFee: string;
  tranFee: string;
  /** The amount sent to the bank (the transfer report's realTransAmount). */
  amount: string;
}

export interface ProofLine {
  /** `source` or `source:part`: the key that opens the line's rows. */
  key: string;
  source: string;
  part: string;
  label: string;
  /** The source's usual sign (+1 adds, −1 takes away, 0 either). */
  sign: 1 | -1 | 0;
  count: number;
  /** Signed contribution to the deposit, settlement currency. */
  amount: string;
  /** Transaction lines: the transaction currency, its total and the conversion rates used. */
  txnCurrency?: string;
  txnAmount?: string;
  rateMin?: string;
  rateMax?: string;
}

export interface Proof {
  transfer: ProofTransfer;
  lines: ProofLine[];
  /** Σ lines (equals transfer.amount when balanced). */
  total: string;
  balanced: boolean;
}

/** Raw numbers of a proof (tests, exports): minor units. */
export interface ProofRaw {
  key: TransferKey;
  row: TransferDb;
  lines: { source: ProofSource; part: string; n: number; amount: number; cur: string | null; txn_amount: number | null; rate_min: string | null; rate_max: string | null }[];
}

const paramsOf = (t: TransferDb) => [t.mer_id, t.bus_line, t.set_cur.trim(), t.recon_search_date, t.txn_set_date];

/** The transfer's settlement row, when it is a transfer of a merchant in `scope`. */
export async function loadTransfer(q: Queryable, scope: readonly string[], key: TransferKey): Promise<TransferDb | null> {
  if (!scope.includes(key.merId)) return null;
  const { rows } = await q.query<TransferDb>(
    `SELECT s.txn_set_date::text AS txn_set_date, s.mer_id, m.name AS mer_name, s.bus_line, s.set_cur::text AS set_cur, s.recon_search_date::text AS recon_search_date,
            s.remit_date::text AS remit_date, s.recon_set_amount, s.serv_amount, s.released_amount, s.real_trans_before_fee, s.tran_fee, s.real_trans_amount
       FROM settlement s JOIN merchant m ON m.mer_id = s.mer_id
      WHERE s.mer_id = $1 AND s.bus_line = $2 AND s.set_cur = $3 AND s.txn_set_date = $4::date AND s.trans_amount > 0`,
    [key.merId, key.busLine, key.setCur, key.date],
  );
  return rows[0] ?? null;
}

/** Every source's lines for a transfer (minor units), or null when the transfer is not the caller's. */
export async function proofRaw(q: Queryable, scope: readonly string[], key: TransferKey, sources: readonly ProofSource[] = PROOF_SOURCES): Promise<ProofRaw | null> {
  const row = await loadTransfer(q, scope, key);
  if (!row) return null;
  const p = paramsOf(row);
  const lines: ProofRaw['lines'] = [];
  for (const source of sources) {
    const { rows } = await q.query<{ part: string; n: number; amount: number | null; cur: string | null; txn_amount: number | null; rate_min: string | null; rate_max: string | null }>(
      source.linesSql,
      p,
    );
    const got = rows.filter((r) => r.n > 0 || Number(r.amount ?? 0) !== 0);
    if (!got.length && source.always) lines.push({ source, part: '', n: 0, amount: 0, cur: null, txn_amount: null, rate_min: null, rate_max: null });
    for (const r of got) lines.push({ source, part: r.part, n: r.n, amount: Number(r.amount ?? 0), cur: r.cur?.trim() ?? null, txn_amount: r.txn_amount, rate_min: r.rate_min, rate_max: r.rate_max });
  }
  return { key, row, lines };
}

/** A rate as stored (numeric(24,12)) without its trailing zeros. */
export const trimRate = (r: string | null | undefined) => (r == null ? undefined : r.includes('.') ? r.replace(/0+$/, '').replace(/\.$/, '') : r);

export const lineKeyOf = (source: string, part: string) => (part ? `${source}:${part}` : source);

export function lineLabel(source: ProofSource, part: string, lang: Language): string {
  return part && source.partLabel ? `${source.label[lang]} — ${source.partLabel(part, lang)}` : part ? `${source.label[lang]} — ${part}` : source.label[lang];
}

/** The wire form of a proof. */
export function proofOf(raw: ProofRaw, lang: Language): Proof {
  const t = raw.row;
  const cur = t.set_cur.trim();
  const m = (v: number) => toDecimal(v, cur);
  const total = raw.lines.reduce((s, l) => s + l.amount, 0);
  return {
    transfer: {
      id: transferIdOf(raw.key),
      merId: t.mer_id,
      merName: t.mer_name,
      busLine: t.bus_line,
      currency: cur,
      settleFrom: t.recon_search_date,
      settleTo: t.txn_set_date,
      remitDate: t.remit_date,
      reconSetAmount: m(t.recon_set_amount),
      servAmount: m(t.serv_amount),
      releasedAmount: m(t.released_amount),
      beforeFee: m(t.real_trans_before_fee),
      tranFee: m(t.tran_fee),
      amount: m(t.real_trans_amount),
    },
    lines: raw.lines.map((l) => ({
      key: lineKeyOf(l.source.key, l.part),
      source: l.source.key,
      part: l.part,
      label: lineLabel(l.source, l.part, lang),
      sign: l.source.sign,
      count: l.n,
      amount: m(l.amount),
      ...(l.cur && l.txn_amount != null ? { txnCurrency: l.cur, txnAmount: toDecimal(l.txn_amount, l.cur), rateMin: trimRate(l.rate_min) ?? '1', rateMax: trimRate(l.rate_max) ?? '1' } : {}),
    })),
    total: m(total),
    balanced: total === t.real_trans_amount,
  };
}

export async function loadProof(q: Queryable, scope: readonly string[], key: TransferKey, lang: Language, sources: readonly ProofSource[] = PROOF_SOURCES): Promise<Proof | null> {
  const raw = await proofRaw(q, scope, key, sources);
  return raw && proofOf(raw, lang);
}

/** A line key → its source and part (null: no such source, or a part of a one-line source). */
export function parseLineKey(lineKey: string, sources: readonly ProofSource[] = PROOF_SOURCES): { source: ProofSource; part: string } | null {
  const i = lineKey.indexOf(':');
  const source = sourceOf(i < 0 ? lineKey : lineKey.slice(0, i), sources);
  if (!source) return null;
  return { source, part: i < 0 ? '' : lineKey.slice(i + 1) };
}

export interface ProofRow {
  kind: ProofRowDb['kind'];
  txnId: string | null;
  ref: string;
  day: string;
  txnDate: string | null;
  txnTime: string | null;
  brand: string | null;
  type: string | null;
  txnCurrency: string | null;
  txnAmount: string | null;
  rate: string | null;
  amount: string;
  late: boolean;
}

export const rowOf = (r: ProofRowDb, setCur: string): ProofRow => ({
  kind: r.kind,
  txnId: r.txn_id == null ? null : String(r.txn_id),
  ref: r.ref,
  day: r.day,
  txnDate: r.txn_date,
  txnTime: r.txn_time ? new Date(r.txn_time).toISOString() : null,
  brand: r.brand,
  type: r.type,
  txnCurrency: r.cur?.trim() ?? null,
  txnAmount: r.txn_amount != null && r.cur ? toDecimal(r.txn_amount, r.cur.trim()) : null,
  rate: r.kind === 'txn' ? (trimRate(r.rate) ?? '1') : null,
  amount: toDecimal(r.amount, setCur),
  late: r.late,
});

/** The parameters of a source's rows SQL: the transfer's, then the part when the SQL takes it ($6); the next free number. */
function rowParams(row: TransferDb, sql: string, part: string): { params: unknown[]; next: number } {
  const p = paramsOf(row);
  return /\$6\b/.test(sql) ? { params: [...p, part], next: 7 } : { params: p, next: 6 };
}

/** Count and sum of a line's rows (minor units), from the rows' own SQL. */
export async function lineRowTotals(q: Queryable, row: TransferDb, source: ProofSource, part: string): Promise<{ n: number; sum: number }> {
  const { params } = rowParams(row, source.rowsSql, part);
  const { rows } = await q.query<{ n: number; s: number }>(`SELECT count(*)::int AS n, coalesce(sum(x.amount), 0)::bigint AS s FROM (${source.rowsSql}) x`, params);
  return { n: rows[0].n, sum: Number(rows[0].s) };
}

/** One page of a line's rows (minor units). */
export async function lineRowsRaw(q: Queryable, row: TransferDb, source: ProofSource, part: string, limit: number, offset: number): Promise<ProofRowDb[]> {
  const { params, next } = rowParams(row, source.rowsSql, part);
  const { rows } = await q.query<ProofRowDb>(`${source.rowsSql} LIMIT $${next} OFFSET $${next + 1}`, [...params, limit, offset]);
  return rows;
}

export interface ProofRowsPage {
  line: { key: string; label: string; amount: string };
  content: ProofRow[];
  totalElements: number;
  /** Σ of all the line's rows (the total row). */
  sum: string;
}

/** A page of one line's rows, with their count and sum; null when the transfer or the line is unknown. */
export async function loadProofRows(
  q: Queryable,
  scope: readonly string[],
  key: TransferKey,
  lineKey: string,
  page: number,
  size: number,
  lang: Language,
  sources: readonly ProofSource[] = PROOF_SOURCES,
): Promise<ProofRowsPage | null> {
  const parsed = parseLineKey(lineKey, sources);
  if (!parsed) return null;
  const row = await loadTransfer(q, scope, key);
  if (!row) return null;
  const cur = row.set_cur.trim();
  const { rows: lineRows } = await q.query<{ part: string; amount: number | null }>(parsed.source.linesSql, paramsOf(row));
  const line = lineRows.find((r) => r.part === parsed.part);
  if (!line && !(parsed.part === '' && parsed.source.always)) return null;
  const [totals, rows] = await Promise.all([lineRowTotals(q, row, parsed.source, parsed.part), lineRowsRaw(q, row, parsed.source, parsed.part, size, page * size)]);
  return {
    line: { key: lineKey, label: lineLabel(parsed.source, parsed.part, lang), amount: toDecimal(Number(line?.amount ?? 0), cur) },
    content: rows.map((r) => rowOf(r, cur)),
    totalElements: totals.n,
    sum: toDecimal(totals.sum, cur),
  };
}
