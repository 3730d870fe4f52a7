import type { Queryable } from '../../db/db';

/** One dispute money movement as it joined a settlement row (issue 48; for the payout proof, issue 49). */
export interface DisputeMovement {
  id: number;
  disputeId: number;
  gwDisputeId: string;
  kind: 'debit' | 'credit' | 'fee';
  /** The ledger row (DISPUTE, DISPUTE_REVERSAL or DISPUTE_FEE). */
  txnId: number;
  gwTransId: string;
  merId: string;
  busLine: string;
  setCur: string;
  /** The settlement day it joined (null: not settled yet). */
  settleDate: string | null;
  /** Settlement currency minor units, signed as it moves the merchant's balance (debit and fee −, credit +). */
  signedAmount: number;
}

/** A settlement row's (or a transfer's range of rows') dispute lines: per kind, the sum and the rows behind it. */
export interface DisputeLines {
  debit: number;
  credit: number;
  fee: number;
  /** debit + credit + fee, signed: what the disputes moved of the balance. */
  net: number;
  rows: DisputeMovement[];
}

export interface LinesQuery {
  merId: string;
  /** The settlement day, or the first day of a transfer's range (its reconSearchDate). */
  from: string;
  /** The last day (the transfer's txnSetDate); default `from`. */
  to?: string;
  busLine?: string;
  setCur?: string;
}

const SIGN = { debit: -1, credit: 1, fee: -1 } as const;

/**
 * The dispute lines of a settlement day or a transfer: every movement that joined the settlement
 * rows of the merchant (optionally one business line and settlement currency) with settlement date
 * in [from, to] — for a transfer, its drill-down range [reconSearchDate, txnSetDate]. The sums are
 * those the settlement row's reconSetAmount contains.
 */
export async function disputeLinesOf(q: Queryable, w: LinesQuery): Promise<DisputeLines> {
  const { rows } = await q.query<{
    id: string;
    dispute_id: string;
    gw_dispute_id: string;
    kind: 'debit' | 'credit' | 'fee';
    txn_id: string;
    gw_trans_id: string;
    mer_id: string;
    bus_line: string;
    set_cur: string;
    settle_date: string | null;
    amount: string;
  }>(
    `SELECT m.id, m.dispute_id, d.gw_dispute_id, m.kind, m.txn_id, k.gw_trans_id, m.mer_id, m.bus_line, m.set_cur::text AS set_cur,
            to_char(m.settle_date, 'YYYY-MM-DD') AS settle_date, m.amount
       FROM dispute_movement m JOIN dispute d ON d.id = m.dispute_id JOIN txn_key k ON k.id = m.txn_id
      WHERE m.mer_id = $1 AND m.settle_date BETWEEN $2::date AND $3::date
        AND ($4::text IS NULL OR m.bus_line = $4) AND ($5::text IS NULL OR m.set_cur = $5)
      ORDER BY m.settle_date, m.id`,
    [w.merId, w.from, w.to ?? w.from, w.busLine ?? null, w.setCur ?? null],
  );
  const out: DisputeLines = { debit: 0, credit: 0, fee: 0, net: 0, rows: [] };
  for (const r of rows) {
    const signed = SIGN[r.kind] * Number(r.amount);
    out[r.kind] += signed;
    out.net += signed;
    out.rows.push({
      id: Number(r.id),
      disputeId: Number(r.dispute_id),
      gwDisputeId: r.gw_dispute_id,
      kind: r.kind,
      txnId: Number(r.txn_id),
      gwTransId: r.gw_trans_id,
      merId: r.mer_id,
      busLine: r.bus_line,
      setCur: r.set_cur.trim(),
      settleDate: r.settle_date,
      signedAmount: signed,
    });
  }
  return out;
}

/** The movements of one dispute (its detail's settlement lines), settled or not. */
export async function movementsOf(q: Queryable, disputeId: number): Promise<DisputeMovement[]> {
  const { rows } = await q.query<{
    id: string;
    dispute_id: string;
    gw_dispute_id: string;
    kind: 'debit' | 'credit' | 'fee';
    txn_id: string;
    gw_trans_id: string;
    mer_id: string;
    bus_line: string;
    set_cur: string;
    settle_date: string | null;
    amount: string;
  }>(
    `SELECT m.id, m.dispute_id, d.gw_dispute_id, m.kind, m.txn_id, k.gw_trans_id, m.mer_id, m.bus_line, m.set_cur::text AS set_cur,
            to_char(m.settle_date, 'YYYY-MM-DD') AS settle_date, m.amount
       FROM dispute_movement m JOIN dispute d ON d.id = m.dispute_id JOIN txn_key k ON k.id = m.txn_id
      WHERE m.dispute_id = $1 ORDER BY m.id`,
    [disputeId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    disputeId: Number(r.dispute_id),
    gwDisputeId: r.gw_dispute_id,
    kind: r.kind,
    txnId: Number(r.txn_id),
    gwTransId: r.gw_trans_id,
    merId: r.mer_id,
    busLine: r.bus_line,
    setCur: r.set_cur.trim(),
    settleDate: r.settle_date,
    signedAmount: SIGN[r.kind] * Number(r.amount),
  }));
}
