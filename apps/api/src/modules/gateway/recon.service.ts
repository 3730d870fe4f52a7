import type { Db, Queryable } from '../../db/db';
import { audit } from '../../lib/audit';
import { zonedInstant } from '../../lib/zone';
import { addDays } from '../../lib/dates';

/**
 * Reconciliation of the feed (issue 25 §3), per gateway connection and transaction day D:
 *   - per transaction, what the connection reported (`gateway_reported`, API and files) against
 *     the ledger: missing (reported, not in the ledger — e.g. refused), amount (amount or currency
 *     differs), status (result differs; '04' and empty are the same), extra (a ledger transaction
 *     of the connection's merchants on D that the connection never reported; sandbox and demo
 *     generator rows never pass through a gateway and are left out);
 *   - unreported (issue 46): an operation the portal itself sent towards a gateway for one of the
 *     connection's merchants on D — a merchant's refund, a void, a charge (`acquirer_operation`),
 *     whichever adapter answered it, the sandbox included — that the connection never reported.
 *     Such a row is listed under this kind only (not also as extra);
 *   - per currency and type, the gateway's control totals (count and signed sum of successful
 *     transactions; `gateway_control_total`) against the same ledger rows → kind 'total'.
 * The differences of (connection, D) are replaced on each run; a run is recorded in `recon_run`.
 */

export interface ReconResult {
  connectionId: string;
  date: string;
  missing: number;
  extra: number;
  amount: number;
  status: number;
  total: number;
  /** Refunds, voids and charges the portal sent (acquirer operations) that the connection never reported. */
  unreported: number;
  /** Control totals were known for the day. */
  controlTotals: boolean;
}

const NOT_GATEWAY = ['sandbox', 'generator'];

export async function reconcileDay(db: Db, date: string, o: { platformTz: string; connectionId?: string }): Promise<ReconResult[]> {
  const { rows: conns } = await db.query<{ id: string; merchants: string[] }>(`SELECT id, merchants FROM gateway_connection WHERE enabled AND ($1::text IS NULL OR id = $1) ORDER BY id`, [
    o.connectionId ?? null,
  ]);
  const out: ReconResult[] = [];
  // The day's transactions lie within [D 00:00, D+1 00:00) of the platform zone: the partition key range.
  const from = zonedInstant(date, o.platformTz);
  const to = zonedInstant(addDays(date, 1), o.platformTz);
  for (const c of conns) out.push(await db.tx((q) => reconcileOne(q, c, date, from, to)));
  return out;
}

/**
 * The connection's reported rows of the day ($1, $2), each with the ledger id it stands for (`lid`;
 * issue 47: ids are per connection): its claim's, else — a row it reported and the feed refused —
 * the same id's ledger row when that is of one of its merchants ($3) and no other connection's.
 */
const MAPPED = `SELECT r.*, coalesce(
    (SELECT g.ledger_id FROM gateway_txn g WHERE g.connection_id = r.connection_id AND g.gw_trans_id = r.gw_trans_id),
    (SELECT k.gw_trans_id FROM txn_key k WHERE k.gw_trans_id = r.gw_trans_id AND k.mer_id = ANY($3::text[])
        AND NOT EXISTS (SELECT 1 FROM gateway_txn g2 WHERE g2.ledger_id = k.gw_trans_id AND g2.connection_id <> r.connection_id))) AS lid
  FROM gateway_reported r WHERE r.connection_id = $1 AND r.txn_date = $2`;

async function reconcileOne(q: Queryable, c: { id: string; merchants: string[] }, date: string, from: Date, to: Date): Promise<ReconResult> {
  await q.query('DELETE FROM recon_difference WHERE connection_id = $1 AND txn_date = $2', [c.id, date]);
  const ins = (kind: string, sql: string, params: unknown[]) =>
    q.query(`INSERT INTO recon_difference (connection_id, txn_date, kind, gw_trans_id, mer_id, detail) ${sql}`, params).then((r) => r.rowCount ?? 0);
  const base = [c.id, date];
  const mapped = [...base, c.merchants];
  const missing = await ins(
    'missing',
    `SELECT $1, $2, 'missing', r.gw_trans_id, r.mer_id, jsonb_build_object('tranType', r.tran_type, 'currency', r.currency, 'amount', r.amount, 'gwResponse', r.gw_response)
       FROM (${MAPPED}) r
      WHERE NOT EXISTS (SELECT 1 FROM txn_key k WHERE k.gw_trans_id = r.lid)`,
    mapped,
  );
  const amount = await ins(
    'amount',
    `SELECT $1, $2, 'amount', r.gw_trans_id, r.mer_id,
            jsonb_build_object('reported', jsonb_build_object('currency', r.currency, 'amount', r.amount), 'ledger', jsonb_build_object('currency', btrim(t.currency), 'amount', t.amount * t.amount_sign))
       FROM (${MAPPED}) r JOIN txn_key k ON k.gw_trans_id = r.lid JOIN txn t ON t.id = k.id AND t.txn_time = k.txn_time
      WHERE (t.amount * t.amount_sign <> r.amount OR btrim(t.currency) <> r.currency)`,
    mapped,
  );
  const status = await ins(
    'status',
    `SELECT $1, $2, 'status', r.gw_trans_id, r.mer_id, jsonb_build_object('reported', r.gw_response, 'ledger', t.gw_response)
       FROM (${MAPPED}) r JOIN txn_key k ON k.gw_trans_id = r.lid JOIN txn t ON t.id = k.id AND t.txn_time = k.txn_time
      WHERE coalesce(nullif(t.gw_response, ''), '04') <> coalesce(nullif(r.gw_response, ''), '04')`,
    mapped,
  );
  const extra = await ins(
    'extra',
    `SELECT $1, $2, 'extra', t.gw_trans_id, t.mer_id, jsonb_build_object('tranType', t.tran_type, 'currency', btrim(t.currency), 'amount', t.amount * t.amount_sign, 'gwResponse', t.gw_response, 'source', t.source)
       FROM txn t
      WHERE t.txn_time >= $3 AND t.txn_time < $4 AND t.txn_date = $2 AND t.mer_id = ANY($5::text[]) AND t.source <> ALL($6::text[])
        AND NOT EXISTS (SELECT 1 FROM gateway_reported r LEFT JOIN gateway_txn g ON g.connection_id = r.connection_id AND g.gw_trans_id = r.gw_trans_id
                         WHERE r.connection_id = $1 AND coalesce(g.ledger_id, r.gw_trans_id) = t.gw_trans_id)
        AND NOT EXISTS (SELECT 1 FROM acquirer_operation o WHERE o.txn_id = t.id)`,
    [...base, from, to, c.merchants, NOT_GATEWAY],
  );
  // The portal's own operations towards a gateway (issue 46), of any source: a sandbox-answered
  // refund in production reached no gateway, and must show up here.
  const unreported = await ins(
    'unreported',
    `SELECT $1, $2, 'unreported', o.op_key, o.mer_id,
            jsonb_build_object('operation', o.kind, 'acquirer', o.acquirer, 'state', o.state, 'tranType', t.tran_type, 'currency', btrim(t.currency),
                               'amount', t.amount * t.amount_sign, 'gwResponse', t.gw_response, 'source', t.source, 'createdAt', o.created_at)
       FROM acquirer_operation o
       JOIN txn_key k ON k.id = o.txn_id
       JOIN txn t ON t.id = k.id AND t.txn_time = k.txn_time
      WHERE k.txn_time >= $3 AND k.txn_time < $4 AND t.txn_date = $2 AND o.mer_id = ANY($5::text[])
        AND NOT EXISTS (SELECT 1 FROM gateway_reported r WHERE r.connection_id = $1 AND r.gw_trans_id = o.op_key)`,
    [...base, from, to, c.merchants],
  );
  const { rows: ct } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM gateway_control_total WHERE connection_id = $1 AND txn_date = $2', base);
  let total = 0;
  if (ct[0].n > 0) {
    total = await ins(
      'total',
      `WITH ledger AS (
         SELECT btrim(t.currency) AS currency, t.tran_type, count(*)::int AS n, sum(t.amount * t.amount_sign)::int8 AS s
           FROM txn t
          WHERE t.txn_time >= $3 AND t.txn_time < $4 AND t.txn_date = $2 AND t.mer_id = ANY($5::text[]) AND t.source <> ALL($6::text[]) AND t.gw_response = '00'
          GROUP BY 1, 2),
       control AS (SELECT currency, tran_type, txn_count AS n, amount AS s FROM gateway_control_total WHERE connection_id = $1 AND txn_date = $2)
       SELECT $1, $2, 'total', NULL, NULL,
              jsonb_build_object('currency', coalesce(c.currency, l.currency), 'tranType', coalesce(c.tran_type, l.tran_type),
                                 'control', jsonb_build_object('count', coalesce(c.n, 0), 'amount', coalesce(c.s, 0)),
                                 'ledger', jsonb_build_object('count', coalesce(l.n, 0), 'amount', coalesce(l.s, 0)))
         FROM control c FULL JOIN ledger l ON l.currency = c.currency AND l.tran_type = c.tran_type
        WHERE coalesce(c.n, 0) <> coalesce(l.n, 0) OR coalesce(c.s, 0) <> coalesce(l.s, 0)`,
      [...base, from, to, c.merchants, NOT_GATEWAY],
    );
  }
  const n = missing + extra + amount + status + total + unreported;
  await q.query(
    `INSERT INTO recon_run (connection_id, txn_date, differences) VALUES ($1, $2, $3)
     ON CONFLICT (connection_id, txn_date) DO UPDATE SET differences = excluded.differences, ran_at = now()`,
    [...base, n],
  );
  await audit(q, { action: 'gateway.reconcile', username: 'system', target: c.id, detail: { date, missing, extra, amount, status, total, unreported } });
  return { connectionId: c.id, date, missing, extra, amount, status, total, unreported, controlTotals: ct[0].n > 0 };
}

export interface Difference {
  id: number;
  connectionId: string;
  date: string;
  kind: string;
  gwTransId: string | null;
  merId: string | null;
  detail: Record<string, unknown>;
}

/** The differences of a day, for the merchants given (null: all, operators). */
export async function listDifferences(q: Queryable, date: string, merchants: string[] | null): Promise<Difference[]> {
  const { rows } = await q.query<{ id: number; connection_id: string; txn_date: string; kind: string; gw_trans_id: string | null; mer_id: string | null; detail: Record<string, unknown> }>(
    `SELECT id, connection_id, txn_date::text AS txn_date, kind, gw_trans_id, mer_id, detail FROM recon_difference
      WHERE txn_date = $1 AND ($2::text[] IS NULL OR mer_id = ANY($2::text[])) ORDER BY connection_id, kind, gw_trans_id LIMIT 5000`,
    [date, merchants],
  );
  return rows.map((r) => ({ id: Number(r.id), connectionId: r.connection_id, date: r.txn_date, kind: r.kind, gwTransId: r.gw_trans_id, merId: r.mer_id, detail: r.detail }));
}

/** Control totals sent by a connection for a day, stored and audited in one transaction (POST /provider/v1/control-totals). */
export async function recordControlTotals(db: Db, connectionId: string, date: string, totals: { currency: string; tranType: string; count: number; amount: number }[]): Promise<void> {
  await db.tx(async (q) => {
    await saveControlTotals(q, connectionId, date, totals);
    await audit(q, { action: 'gateway.control_totals', username: `gateway:${connectionId}`, target: connectionId, detail: { date, totals: totals.length } });
  });
}

/** Control totals sent by a connection for a day (POST /provider/v1/control-totals): replace that day's. */
async function saveControlTotals(q: Queryable, connectionId: string, date: string, totals: { currency: string; tranType: string; count: number; amount: number }[]): Promise<void> {
  await q.query('DELETE FROM gateway_control_total WHERE connection_id = $1 AND txn_date = $2', [connectionId, date]);
  if (!totals.length) return;
  await q.query(
    `INSERT INTO gateway_control_total (connection_id, txn_date, currency, tran_type, txn_count, amount, source)
     SELECT $1, $2, * , 'api' FROM unnest($3::text[], $4::text[], $5::int[], $6::int8[])`,
    [connectionId, date, totals.map((t) => t.currency), totals.map((t) => t.tranType), totals.map((t) => t.count), totals.map((t) => t.amount)],
  );
}
