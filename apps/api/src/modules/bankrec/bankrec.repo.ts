import type { Queryable } from '../../db/db';
import type { Credit, Transfer } from './match';

/** The SQL of bank statements, entries and matches (the service owns the transactions). */

export interface StatementDbRow {
  id: number;
  mer_id: string;
  format: 'camt053' | 'mt940' | 'csv';
  stmt_ref: string;
  account: string;
  currency: string;
  from_date: string | null;
  to_date: string | null;
  opening_minor: string | null;
  closing_minor: string | null;
  balance_note: { key: string; params: Record<string, string | number>; text: string } | null;
  file_name: string;
  entry_count: number;
  added_count: number;
  uploaded_name: string | null;
  created_at: Date;
  credits: number;
  matched: number;
}

export interface EntryDbRow {
  id: number;
  mer_id: string;
  statement_id: number;
  booking_date: string;
  amount_minor: string;
  currency: string;
  reference: string | null;
  counterparty: string | null;
  description: string | null;
}

export interface TransferDbRow {
  mer_id: string;
  bus_line: string;
  set_cur: string;
  txn_set_date: string;
  remit_date: string;
  real_trans_amount: string;
}

export interface NewEntry {
  fingerprint: string;
  bookingDate: string;
  valueDate: string | null;
  amount: number;
  currency: string;
  reference: string | null;
  bankRef: string | null;
  counterparty: string | null;
  description: string | null;
  reversal: boolean;
}

const D = (col: string) => `to_char(${col}, 'YYYY-MM-DD')`;

/** Serialises the matcher and imports of one merchant (held to the end of the transaction). */
export const lockMerchant = (q: Queryable, merId: string) => q.query(`SELECT pg_advisory_xact_lock(hashtext('bankrec:' || $1))`, [merId]);

export async function statementByRef(q: Queryable, merId: string, account: string, ref: string) {
  const { rows } = await q.query<{ id: number; content_hash: string }>('SELECT id, content_hash FROM bank_statement WHERE mer_id = $1 AND account = $2 AND stmt_ref = $3', [merId, account, ref]);
  return rows[0] ? { id: Number(rows[0].id), hash: rows[0].content_hash } : null;
}

export async function insertStatement(
  q: Queryable,
  s: {
    merId: string;
    format: string;
    ref: string;
    account: string;
    currency: string;
    from: string | null;
    to: string | null;
    opening: number | null;
    closing: number | null;
    hash: string;
    note: unknown;
    fileName: string;
    entries: number;
    userId: number;
    username: string;
  },
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO bank_statement (mer_id, format, stmt_ref, account, currency, from_date, to_date, opening_minor, closing_minor, content_hash, balance_note, file_name, entry_count, added_count, uploaded_by, uploaded_name)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,0,$14,$15) RETURNING id`,
    [s.merId, s.format, s.ref, s.account, s.currency, s.from, s.to, s.opening, s.closing, s.hash, s.note === null ? null : JSON.stringify(s.note), s.fileName, s.entries, s.userId, s.username],
  );
  return Number(rows[0].id);
}

/** Inserts the entries not yet known (by fingerprint); returns how many were added. */
export async function insertEntries(q: Queryable, merId: string, statementId: number, account: string, es: NewEntry[]): Promise<number> {
  let added = 0;
  for (let i = 0; i < es.length; i += 5000) {
    const c = es.slice(i, i + 5000);
    const { rowCount } = await q.query(
      `INSERT INTO bank_entry (mer_id, statement_id, account, fingerprint, booking_date, value_date, amount_minor, currency, reference, bank_ref, counterparty, description, reversal)
       SELECT $1, $2, $3, f, b, v, a, c, r, br, cp, d, rv
         FROM unnest($4::text[], $5::date[], $6::date[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::boolean[]) AS x(f, b, v, a, c, r, br, cp, d, rv)
       ON CONFLICT (mer_id, account, fingerprint) DO NOTHING`,
      [
        merId,
        statementId,
        account,
        c.map((e) => e.fingerprint),
        c.map((e) => e.bookingDate),
        c.map((e) => e.valueDate),
        c.map((e) => String(e.amount)),
        c.map((e) => e.currency),
        c.map((e) => e.reference),
        c.map((e) => e.bankRef),
        c.map((e) => e.counterparty),
        c.map((e) => e.description),
        c.map((e) => e.reversal),
      ],
    );
    added += rowCount;
  }
  await q.query('UPDATE bank_statement SET added_count = $2 WHERE id = $1', [statementId, added]);
  return added;
}

export async function listStatements(q: Queryable, merIds: string[], page: number, size: number): Promise<{ rows: StatementDbRow[]; total: number }> {
  const { rows } = await q.query<StatementDbRow>(
    `SELECT s.id, s.mer_id, s.format, s.stmt_ref, s.account, s.currency, ${D('s.from_date')} AS from_date, ${D('s.to_date')} AS to_date,
            s.opening_minor, s.closing_minor, s.balance_note, s.file_name, s.entry_count, s.added_count, s.uploaded_name, s.created_at,
            (SELECT count(*)::int FROM bank_entry e WHERE e.statement_id = s.id AND e.amount_minor > 0) AS credits,
            (SELECT count(*)::int FROM bank_entry e JOIN bank_match_entry m ON m.entry_id = e.id WHERE e.statement_id = s.id) AS matched
       FROM bank_statement s WHERE s.mer_id = ANY($1) ORDER BY s.created_at DESC, s.id DESC LIMIT $2 OFFSET $3`,
    [merIds, size, page * size],
  );
  const { rows: n } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM bank_statement WHERE mer_id = ANY($1)', [merIds]);
  return { rows, total: n[0].n };
}

/** The merchant's credits not in any match (all, or booked in a date range). */
export async function freeCredits(q: Queryable, merIds: string[], range?: { begin: string; end: string }): Promise<EntryDbRow[]> {
  const { rows } = await q.query<EntryDbRow>(
    `SELECT e.id, e.mer_id, e.statement_id, ${D('e.booking_date')} AS booking_date, e.amount_minor, e.currency, e.reference, e.counterparty, e.description
       FROM bank_entry e
      WHERE e.mer_id = ANY($1) AND e.amount_minor > 0 AND NOT EXISTS (SELECT 1 FROM bank_match_entry m WHERE m.entry_id = e.id)
        ${range ? 'AND e.booking_date BETWEEN $2 AND $3' : ''}
      ORDER BY e.booking_date, e.id`,
    range ? [merIds, range.begin, range.end] : [merIds],
  );
  return rows;
}

/** Transfers (settlement rows that sent money) remitted in a range, not in any match. */
export async function freeTransfers(q: Queryable, merIds: string[], begin: string, end: string): Promise<TransferDbRow[]> {
  const { rows } = await q.query<TransferDbRow>(
    `SELECT s.mer_id, s.bus_line, s.set_cur, ${D('s.txn_set_date')} AS txn_set_date, ${D('s.remit_date')} AS remit_date, s.real_trans_amount
       FROM settlement s
      WHERE s.mer_id = ANY($1) AND s.trans_amount > 0 AND s.real_trans_amount > 0 AND s.remit_date BETWEEN $2 AND $3
        AND NOT EXISTS (SELECT 1 FROM bank_match_transfer t WHERE t.mer_id = s.mer_id AND t.bus_line = s.bus_line AND t.set_cur = s.set_cur AND t.txn_set_date = s.txn_set_date)
      ORDER BY s.remit_date, s.mer_id, s.bus_line, s.set_cur`,
    [merIds, begin, end],
  );
  return rows;
}

/** Transfers by key (ids a credit names, a manual match), matched or not, with whether they are. */
export async function transfersByKey(q: Queryable, merIds: string[], keys: { merId: string; busLine: string; setCur: string; date: string }[]) {
  if (!keys.length) return [];
  const { rows } = await q.query<TransferDbRow & { taken: boolean }>(
    `SELECT s.mer_id, s.bus_line, s.set_cur, ${D('s.txn_set_date')} AS txn_set_date, ${D('s.remit_date')} AS remit_date, s.real_trans_amount,
            EXISTS (SELECT 1 FROM bank_match_transfer t WHERE t.mer_id = s.mer_id AND t.bus_line = s.bus_line AND t.set_cur = s.set_cur AND t.txn_set_date = s.txn_set_date) AS taken
       FROM settlement s JOIN unnest($2::text[], $3::text[], $4::text[], $5::date[]) AS k(m, b, c, d)
         ON s.mer_id = k.m AND s.bus_line = k.b AND s.set_cur = k.c AND s.txn_set_date = k.d
      WHERE s.mer_id = ANY($1) AND s.trans_amount > 0 AND s.real_trans_amount > 0 AND s.remit_date IS NOT NULL`,
    [merIds, keys.map((k) => k.merId), keys.map((k) => k.busLine), keys.map((k) => k.setCur), keys.map((k) => k.date)],
  );
  return rows;
}

export async function dismissedSignatures(q: Queryable, merId: string): Promise<Set<string>> {
  const { rows } = await q.query<{ signature: string }>('SELECT signature FROM bank_match_dismissed WHERE mer_id = $1', [merId]);
  return new Set(rows.map((r) => r.signature));
}

export const transferIdOf = (t: Pick<TransferDbRow, 'mer_id' | 'bus_line' | 'set_cur' | 'txn_set_date'>) => `${t.txn_set_date}.${t.mer_id}.${t.bus_line}.${t.set_cur}`;
export function keyOfTransferId(id: string) {
  const m = /^(\d{4}-\d\d-\d\d)\.(\d{15})\.([A-Z0-9_]{1,20})\.([A-Z]{3})$/.exec(id);
  return m ? { date: m[1], merId: m[2], busLine: m[3], setCur: m[4] } : null;
}
export const toTransfer = (t: TransferDbRow): Transfer => ({ id: transferIdOf(t), amount: Number(t.real_trans_amount), currency: t.set_cur, remitDate: t.remit_date });
export const toCredit = (e: EntryDbRow): Credit => ({
  id: Number(e.id),
  amount: Number(e.amount_minor),
  currency: e.currency,
  date: e.booking_date,
  reference: e.reference,
  description: e.description,
});

export interface NewMatch {
  merId: string;
  kind: string;
  state: 'proposed' | 'confirmed';
  currency: string;
  credit: number;
  transfer: number;
  fee: number;
  byReference: boolean;
  entryIds: number[];
  transferIds: string[];
  confirmedBy?: string;
}

/** Inserts matches with their entries and transfers (ids drawn first, so rows join by id). */
export async function insertMatches(q: Queryable, ms: NewMatch[]): Promise<number[]> {
  if (!ms.length) return [];
  const { rows } = await q.query<{ id: string }>(`SELECT nextval('bank_match_id_seq')::text AS id FROM generate_series(1, $1::int)`, [ms.length]);
  const ids = rows.map((r) => Number(r.id));
  await q.query(
    `INSERT INTO bank_match (id, mer_id, kind, state, currency, credit_minor, transfer_minor, fee_minor, by_reference, confirmed_at, confirmed_by)
     SELECT i, m, k, s, c, cr, tr, f, br, CASE WHEN s = 'confirmed' THEN now() END, cb
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[], $9::boolean[], $10::text[]) AS x(i, m, k, s, c, cr, tr, f, br, cb)`,
    [
      ids,
      ms.map((m) => m.merId),
      ms.map((m) => m.kind),
      ms.map((m) => m.state),
      ms.map((m) => m.currency),
      ms.map((m) => String(m.credit)),
      ms.map((m) => String(m.transfer)),
      ms.map((m) => String(m.fee)),
      ms.map((m) => m.byReference),
      ms.map((m) => m.confirmedBy ?? null),
    ],
  );
  const me = ms.flatMap((m, i) => m.entryIds.map((e) => [ids[i], e] as const));
  await q.query('INSERT INTO bank_match_entry (match_id, entry_id) SELECT * FROM unnest($1::bigint[], $2::bigint[])', [me.map((x) => x[0]), me.map((x) => x[1])]);
  const mt = ms.flatMap((m, i) => m.transferIds.map((t) => [ids[i], keyOfTransferId(t)!] as const));
  await q.query('INSERT INTO bank_match_transfer (match_id, mer_id, bus_line, set_cur, txn_set_date) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::date[])', [
    mt.map((x) => x[0]),
    mt.map((x) => x[1].merId),
    mt.map((x) => x[1].busLine),
    mt.map((x) => x[1].setCur),
    mt.map((x) => x[1].date),
  ]);
  return ids;
}

export interface MatchDbRow {
  id: number;
  mer_id: string;
  kind: string;
  state: 'proposed' | 'confirmed';
  currency: string;
  credit_minor: string;
  transfer_minor: string;
  fee_minor: string;
  by_reference: boolean;
  confirmed_by: string | null;
  confirmed_at: Date | null;
}

/** Matches of the merchants with an entry booked, or a transfer remitted, in the range. */
export async function matchesIn(q: Queryable, merIds: string[], begin: string, end: string) {
  const { rows: ms } = await q.query<MatchDbRow>(
    `SELECT m.id, m.mer_id, m.kind, m.state, m.currency, m.credit_minor, m.transfer_minor, m.fee_minor, m.by_reference, m.confirmed_by, m.confirmed_at
       FROM bank_match m
      WHERE m.mer_id = ANY($1)
        AND (EXISTS (SELECT 1 FROM bank_match_entry me JOIN bank_entry e ON e.id = me.entry_id WHERE me.match_id = m.id AND e.booking_date BETWEEN $2 AND $3)
          OR EXISTS (SELECT 1 FROM bank_match_transfer mt JOIN settlement s ON s.mer_id = mt.mer_id AND s.bus_line = mt.bus_line AND s.set_cur = mt.set_cur AND s.txn_set_date = mt.txn_set_date
                      WHERE mt.match_id = m.id AND s.remit_date BETWEEN $2 AND $3))
      ORDER BY m.state DESC, m.id
      LIMIT 2000`,
    [merIds, begin, end],
  );
  return withParts(q, ms);
}

/** Matches by id within the merchants (others' answer as absent). */
export async function matchesById(q: Queryable, merIds: string[], ids: number[]) {
  const { rows } = await q.query<MatchDbRow>(
    `SELECT id, mer_id, kind, state, currency, credit_minor, transfer_minor, fee_minor, by_reference, confirmed_by, confirmed_at FROM bank_match WHERE id = ANY($1) AND mer_id = ANY($2) ORDER BY id`,
    [ids, merIds],
  );
  return withParts(q, rows);
}

async function withParts(q: Queryable, ms: MatchDbRow[]) {
  const ids = ms.map((m) => Number(m.id));
  const { rows: es } = await q.query<EntryDbRow & { match_id: number }>(
    `SELECT me.match_id, e.id, e.mer_id, e.statement_id, ${D('e.booking_date')} AS booking_date, e.amount_minor, e.currency, e.reference, e.counterparty, e.description
       FROM bank_match_entry me JOIN bank_entry e ON e.id = me.entry_id WHERE me.match_id = ANY($1) ORDER BY e.booking_date, e.id`,
    [ids],
  );
  const { rows: ts } = await q.query<TransferDbRow & { match_id: number }>(
    `SELECT mt.match_id, s.mer_id, s.bus_line, s.set_cur, ${D('s.txn_set_date')} AS txn_set_date, ${D('s.remit_date')} AS remit_date, s.real_trans_amount
       FROM bank_match_transfer mt JOIN settlement s ON s.mer_id = mt.mer_id AND s.bus_line = mt.bus_line AND s.set_cur = mt.set_cur AND s.txn_set_date = mt.txn_set_date
      WHERE mt.match_id = ANY($1) ORDER BY s.remit_date, s.bus_line`,
    [ids],
  );
  return ms.map((m) => ({
    ...m,
    id: Number(m.id),
    entries: es.filter((e) => Number(e.match_id) === Number(m.id)),
    transfers: ts.filter((t) => Number(t.match_id) === Number(m.id)),
  }));
}

export async function setMatchState(q: Queryable, ids: number[], merIds: string[], from: 'proposed' | 'confirmed', to: 'proposed' | 'confirmed', by: string | null): Promise<number[]> {
  const { rows } = await q.query<{ id: string }>(
    `UPDATE bank_match SET state = $4, confirmed_at = CASE WHEN $4 = 'confirmed' THEN now() END, confirmed_by = CASE WHEN $4 = 'confirmed' THEN $5 END
      WHERE id = ANY($1) AND mer_id = ANY($2) AND state = $3 RETURNING id::text`,
    [ids, merIds, from, to, by],
  );
  return rows.map((r) => Number(r.id));
}

export async function deleteMatch(q: Queryable, id: number, merId: string, signature: string): Promise<void> {
  await q.query('DELETE FROM bank_match WHERE id = $1', [id]);
  await q.query('INSERT INTO bank_match_dismissed (mer_id, signature) VALUES ($1, $2) ON CONFLICT DO NOTHING', [merId, signature]);
}

export async function entriesById(q: Queryable, merIds: string[], ids: number[]) {
  const { rows } = await q.query<EntryDbRow & { taken: boolean }>(
    `SELECT e.id, e.mer_id, e.statement_id, ${D('e.booking_date')} AS booking_date, e.amount_minor, e.currency, e.reference, e.counterparty, e.description,
            EXISTS (SELECT 1 FROM bank_match_entry m WHERE m.entry_id = e.id) AS taken
       FROM bank_entry e WHERE e.id = ANY($1) AND e.mer_id = ANY($2)`,
    [ids, merIds],
  );
  return rows;
}

export async function getCsvMapping(q: Queryable, merId: string): Promise<unknown | null> {
  const { rows } = await q.query<{ mapping: unknown }>('SELECT mapping FROM bank_csv_mapping WHERE mer_id = $1', [merId]);
  return rows[0]?.mapping ?? null;
}

export async function saveCsvMapping(q: Queryable, merId: string, mapping: unknown, by: string): Promise<unknown | null> {
  const before = await getCsvMapping(q, merId);
  await q.query(
    `INSERT INTO bank_csv_mapping (mer_id, mapping, updated_by) VALUES ($1, $2, $3)
     ON CONFLICT (mer_id) DO UPDATE SET mapping = EXCLUDED.mapping, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [merId, JSON.stringify(mapping), by],
  );
  return before;
}

/** The credits matched (proposed or confirmed) to the given transfers. */
export async function creditsOfTransfers(q: Queryable, merIds: string[], keys: { merId: string; busLine: string; setCur: string; date: string }[]) {
  if (!keys.length) return [];
  const { rows } = await q.query<EntryDbRow & { match_id: number; state: string; kind: string; fee_minor: string; t_mer: string; t_line: string; t_cur: string; t_date: string }>(
    `SELECT mt.match_id, m.state, m.kind, m.fee_minor, mt.mer_id AS t_mer, mt.bus_line AS t_line, mt.set_cur AS t_cur, ${D('mt.txn_set_date')} AS t_date,
            e.id, e.mer_id, e.statement_id, ${D('e.booking_date')} AS booking_date, e.amount_minor, e.currency, e.reference, e.counterparty, e.description
       FROM unnest($2::text[], $3::text[], $4::text[], $5::date[]) AS k(m, b, c, d)
       JOIN bank_match_transfer mt ON mt.mer_id = k.m AND mt.bus_line = k.b AND mt.set_cur = k.c AND mt.txn_set_date = k.d
       JOIN bank_match m ON m.id = mt.match_id
       JOIN bank_match_entry me ON me.match_id = m.id
       JOIN bank_entry e ON e.id = me.entry_id
      WHERE mt.mer_id = ANY($1)
      ORDER BY e.booking_date, e.id`,
    [merIds, keys.map((k) => k.merId), keys.map((k) => k.busLine), keys.map((k) => k.setCur), keys.map((k) => k.date)],
  );
  return rows;
}
