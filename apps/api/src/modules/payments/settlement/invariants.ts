import type { Queryable } from '../../../db/db';

/**
 * The invariants of domain.md, each one set-based query returning its violations (empty = holds).
 * Used by the property tests and by `bench/verify-invariants.ts` on a million transactions.
 */
const CHECKS: Record<string, string> = {
  // I1: the drill-down (settleList: txns of the group with settlement date in [reconSearchDate, txnSetDate])
  // sums to the rows' reconSetAmount over that range; a transfer = that sum − held + released.
  I1: `
    WITH tx AS (
      SELECT mer_id, bus_line, settle_currency::text AS cur, settle_date AS d, sum(settle_amount - settle_fee) AS v
        FROM txn WHERE settle_date IS NOT NULL GROUP BY 1, 2, 3, 4),
    rows AS (
      SELECT coalesce(s.mer_id, tx.mer_id) AS mer_id, coalesce(s.bus_line, tx.bus_line) AS bus_line, coalesce(s.set_cur::text, tx.cur) AS cur,
             coalesce(s.txn_set_date, tx.d) AS d, s.recon_search_date, s.trans_amount, s.real_trans_before_fee,
             coalesce(tx.v, 0) AS txv, coalesce(s.recon_set_amount, 0) AS rec, coalesce(s.serv_amount, 0) AS serv,
             coalesce(s.released_amount, 0) AS rel, s.mer_id IS NULL AS orphan
        FROM settlement s FULL JOIN tx ON tx.mer_id = s.mer_id AND tx.bus_line = s.bus_line AND tx.cur = s.set_cur::text AND tx.d = s.txn_set_date),
    c AS MATERIALIZED (
      SELECT r.*, min(d) OVER (PARTITION BY mer_id, bus_line, cur) AS first_d, sum(txv) OVER w AS ctx, sum(rec) OVER w AS crec, sum(serv) OVER w AS cserv, sum(rel) OVER w AS crel
        FROM rows r WINDOW w AS (PARTITION BY mer_id, bus_line, cur ORDER BY d))
    -- The range [reconSearchDate, d] starts the day after a row (the previous transfer) or at the
    -- group's first row: range sums = running sums at d − running sums at reconSearchDate − 1.
    SELECT c.mer_id, c.bus_line, c.cur, c.d, c.orphan,
           c.ctx - coalesce(b.ctx, 0) AS drill, c.crec - coalesce(b.crec, 0) AS recon,
           c.crec - coalesce(b.crec, 0) - (c.cserv - coalesce(b.cserv, 0)) + (c.crel - coalesce(b.crel, 0)) AS expected_transfer,
           c.real_trans_before_fee
      FROM c LEFT JOIN c b ON b.mer_id = c.mer_id AND b.bus_line = c.bus_line AND b.cur = c.cur AND b.d = c.recon_search_date - 1
     WHERE c.orphan
        OR (c.recon_search_date > c.first_d AND b.d IS NULL)
        OR c.ctx - coalesce(b.ctx, 0) <> c.crec - coalesce(b.crec, 0)
        OR (c.trans_amount > 0 AND c.real_trans_before_fee
            <> c.crec - coalesce(b.crec, 0) - (c.cserv - coalesce(b.cserv, 0)) + (c.crel - coalesce(b.crel, 0)))`,
  // I2: per merchant, date, settlement currency the summary (without M-DEPOSIT rows) nets to the bill
  // rows; M-DEPOSIT = −(reserve held), M-DEPOSIT-RELEASE = reserve released.
  I2: `
    WITH sm AS (
      SELECT mer_id, txn_set_date AS d, set_cur::text AS cur,
             sum(settle_amount - fee) FILTER (WHERE txn_type NOT IN ('M-DEPOSIT', 'M-DEPOSIT-RELEASE')) AS net,
             coalesce(-sum(settle_amount) FILTER (WHERE txn_type = 'M-DEPOSIT'), 0) AS held,
             coalesce(sum(settle_amount) FILTER (WHERE txn_type = 'M-DEPOSIT-RELEASE'), 0) AS released
        FROM settlement_summary GROUP BY 1, 2, 3),
    bl AS (
      SELECT mer_id, txn_set_date AS d, set_cur::text AS cur, sum(recon_set_amount) AS recon, sum(serv_amount) AS held, sum(released_amount) AS released
        FROM settlement GROUP BY 1, 2, 3)
    SELECT coalesce(sm.mer_id, bl.mer_id) AS mer_id, coalesce(sm.d, bl.d) AS d, coalesce(sm.cur, bl.cur) AS cur, sm.net, bl.recon
      FROM sm FULL JOIN bl ON bl.mer_id = sm.mer_id AND bl.d = sm.d AND bl.cur = sm.cur
     WHERE coalesce(sm.net, 0) <> coalesce(bl.recon, 0) OR coalesce(sm.held, 0) <> coalesce(bl.held, 0)
        OR coalesce(sm.released, 0) <> coalesce(bl.released, 0)`,
  // I3: pending roll-forward.
  I3: `
    SELECT mer_id, bus_line, set_cur, txn_set_date, history_pending, prev_total, trans_amount, total_pending, net_amount
      FROM (SELECT s.*, coalesce(lag(total_pending) OVER (PARTITION BY mer_id, bus_line, set_cur ORDER BY txn_set_date), 0) AS prev_total
              FROM settlement s) x
     WHERE history_pending <> prev_total
        OR trans_amount + total_pending <> history_pending + net_amount
        OR net_amount <> recon_set_amount - serv_amount + released_amount`,
  // I4: reserve held − released = outstanding ≥ 0 per merchant and currency, and the reserve rows
  // match the settlement rows' held and released amounts.
  I4: `
    WITH r AS (
      SELECT mer_id, set_cur::text AS cur, sum(amount) AS held, sum(amount) FILTER (WHERE released) AS released,
             sum(amount) FILTER (WHERE NOT released) AS outstanding
        FROM reserve GROUP BY 1, 2),
    s AS (SELECT mer_id, set_cur::text AS cur, sum(serv_amount) AS held, sum(released_amount) AS released FROM settlement GROUP BY 1, 2)
    SELECT coalesce(r.mer_id, s.mer_id) AS mer_id, coalesce(r.cur, s.cur) AS cur, r.held, r.released, r.outstanding, s.held AS s_held, s.released AS s_released
      FROM r FULL JOIN s ON s.mer_id = r.mer_id AND s.cur = r.cur
     WHERE coalesce(r.held, 0) <> coalesce(s.held, 0) OR coalesce(r.released, 0) <> coalesce(s.released, 0)
        OR coalesce(r.held, 0) - coalesce(r.released, 0) <> coalesce(r.outstanding, 0) OR coalesce(r.outstanding, 0) < 0`,
  // I5: successful refunds of a purchase never exceed it (and its return amount covers them).
  I5: `
    SELECT p.id, p.amount, p.return_amount, sum(r.amount) AS refunded
      FROM txn p JOIN txn r ON r.origin_txn_id = p.id AND r.tran_type = 'REFD' AND r.gw_response = '00'
     WHERE p.tran_type = 'PURC'
     GROUP BY p.id, p.amount, p.return_amount
    HAVING sum(r.amount) > p.amount OR sum(r.amount) > p.return_amount OR p.return_amount > p.amount`,
  // I6: transfers net of their fee, never negative.
  I6: `
    SELECT mer_id, bus_line, set_cur, txn_set_date, real_trans_before_fee, tran_fee, real_trans_amount
      FROM settlement WHERE real_trans_amount <> real_trans_before_fee - tran_fee OR real_trans_amount < 0`,
  // I8 (issue 48, docs/disputes.md): no purchase loses more than its amount through refunds and
  // disputes together (refunds + chargeback debits − credits back ≤ amount, the purchase's own
  // counters agree); every settled dispute movement is its ledger row's settlement amount with its
  // kind's sign, on that row's day and settlement row — so a settlement row's reconSetAmount is its
  // other transactions' (amount − fee) plus the disputes' debits, credits and fees.
  I8: `
    WITH fam AS (
      SELECT t.origin_txn_id AS pid,
             coalesce(sum(t.amount) FILTER (WHERE t.tran_type = 'REFD'), 0) AS refunded,
             coalesce(sum(t.amount) FILTER (WHERE t.tran_type = 'DISPUTE'), 0) AS debited,
             coalesce(sum(t.amount) FILTER (WHERE t.tran_type = 'DISPUTE_REVERSAL'), 0) AS credited
        FROM txn t WHERE t.origin_txn_id IS NOT NULL AND t.gw_response = '00' AND t.tran_type IN ('REFD', 'DISPUTE', 'DISPUTE_REVERSAL')
       GROUP BY t.origin_txn_id)
    SELECT 'purchase' AS what, p.id, p.amount, fam.refunded, fam.debited, fam.credited, p.disputed_amount AS other
      FROM fam JOIN txn p ON p.id = fam.pid
     WHERE fam.refunded + fam.debited - fam.credited > p.amount OR p.return_amount + p.disputed_amount > p.amount
        OR fam.debited - fam.credited < p.disputed_amount
    UNION ALL
    SELECT 'movement', m.id, m.amount, t.settle_amount, NULL, NULL, NULL
      FROM dispute_movement m JOIN txn t ON t.id = m.txn_id
     WHERE m.settle_date IS NOT NULL AND (t.settle_date IS DISTINCT FROM m.settle_date OR t.bus_line <> m.bus_line OR t.settle_currency <> m.set_cur
        OR t.settle_amount - t.settle_fee <> m.amount * CASE WHEN m.kind = 'credit' THEN 1 ELSE -1 END)
    UNION ALL
    SELECT 'unsettled', m.id, m.amount, t.settle_amount, NULL, NULL, NULL
      FROM dispute_movement m JOIN txn t ON t.id = m.txn_id
     WHERE m.settle_date IS NULL AND t.settle_date IS NOT NULL`,
};

export const INVARIANTS = Object.keys(CHECKS);

/** Violations per invariant (at most `limit` rows each); every array empty when all hold. */
export async function checkInvariants(q: Queryable, limit = 5): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [name, sql] of Object.entries(CHECKS)) {
    out[name] = (await q.query(`SELECT * FROM (${sql}) v LIMIT ${limit}`)).rows;
  }
  return out;
}
