/** The SQL of bank statements, their entries, the free credits and transfers, and the CSV mappings. */
import type { Queryable } from '../../db/db';
import { D, type EntryDbRow, type NewEntry, type StatementDbRow, type TransferDbRow } from './bankrec.rows';

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
