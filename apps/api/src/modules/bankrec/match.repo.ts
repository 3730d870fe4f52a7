/** The SQL of matches: stored with their entries and transfers, read, confirmed, dismissed. */
import type { Queryable } from '../../db/db';
import { D, keyOfTransferId, type EntryDbRow, type TransferDbRow } from './bankrec.rows';

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
