/**
 * The order timeline's sources (issue 49 §3, decision 061): each answers the events of one buyer
 * order — $1 merchant, $2 the order's number (the purchase's, or the pay-by-link order's) — as rows
 * of `TimelineEventDb`; a source that places a day (a settlement, a remittance, a booking date) at
 * its midnight in the platform zone also takes $3, the platform zone (config `platformTz`, IANA
 * name; `usesZone`). The timeline is their union in time order.
 *
 * EXTENSION POINT: disputes (issue 48) and the bank credit matched to the transfer (issue 49 §2,
 * module bankrec) add ONE entry each to `TIMELINE_SOURCES` after the merge; a source only needs
 * the two parameters and the columns below.
 */
export interface TimelineEventDb {
  /** The instant (or, for a day such as a settlement date, its midnight in the platform zone; `day` set). */
  at: Date;
  day: string | null;
  kind: string;
  /** Who did it: a user name, 'buyer', 'gateway', 'system'. */
  actor: string | null;
  ref: string | null;
  txn_id: number | null;
  currency: string | null;
  amount: number | null;
  status: string | null;
  /** A transfer's id (date.merchant.businessLine.currency) when the event is a transfer: opens its proof. */
  transfer_id: string | null;
}

export interface TimelineSource {
  readonly key: string;
  readonly sql: string;
}

/** Whether a source takes $3, the platform zone (PostgreSQL refuses a parameter its statement never names). */
export const usesZone = (s: TimelineSource): boolean => /\$3\b/.test(s.sql);

/** The order's transactions: the purchase and every attempt under its number, its refunds, the pay-by-link payment. */
const ORDER_TXNS = `
SELECT t.* FROM txn t
 WHERE t.mer_id = $1 AND (t.order_no = $2 OR t.origin_order_no = $2
        OR t.id IN (SELECT o.txn_id FROM pay_by_link_order o WHERE o.mer_id = $1 AND o.order_no = $2 AND o.txn_id IS NOT NULL))`;

export const TIMELINE_SOURCES: readonly TimelineSource[] = [
  {
    key: 'txn',
    sql: `
SELECT t.txn_time AS at, NULL::text AS day,
       CASE WHEN t.tran_type IN ('REFD', 'VOID') THEN 'refund' WHEN t.source = 'paybylink' THEN 'attemptLink' WHEN t.store_id IS NOT NULL THEN 'attemptStore' ELSE 'attempt' END AS kind,
       'gateway' AS actor, t.order_no AS ref, t.id AS txn_id, t.currency::text AS currency, t.amount AS amount,
       t.tran_type || ' ' || coalesce(t.gw_response, '') AS status, NULL::text AS transfer_id
  FROM (${ORDER_TXNS}) t`,
  },
  {
    key: 'payByLink',
    sql: `
SELECT e.at, NULL::text AS day, 'link.' || e.kind AS kind, e.actor, o.order_no AS ref, NULL::bigint AS txn_id, o.order_currency::text AS currency,
       CASE WHEN e.kind = 'created' THEN o.total_amount END AS amount, NULL::text AS status, NULL::text AS transfer_id
  FROM pay_by_link_order o JOIN pay_by_link_event e ON e.order_id = o.id
 WHERE o.mer_id = $1 AND o.order_no = $2`,
  },
  {
    key: 'logistics',
    sql: `
SELECT l.updated_at AS at, NULL::text AS day, 'logistics' AS kind, NULL::text AS actor, l.company || ' ' || l.shipment_no AS ref, l.txn_id, NULL::text AS currency,
       NULL::bigint AS amount, l.status, NULL::text AS transfer_id
  FROM logistics l WHERE l.mer_id = $1 AND l.order_no = $2`,
  },
  {
    key: 'settled',
    sql: `
SELECT (t.settle_date::timestamp AT TIME ZONE $3::text) AS at, t.settle_date::text AS day, 'settled' AS kind, 'system' AS actor, t.order_no AS ref, t.id AS txn_id,
       t.settle_currency::text AS currency, t.settle_amount AS amount, t.tran_type AS status, NULL::text AS transfer_id
  FROM (${ORDER_TXNS}) t WHERE t.settle_date IS NOT NULL`,
  },
  {
    key: 'transfer',
    sql: `
SELECT DISTINCT ON (s.txn_set_date, s.bus_line, s.set_cur) (s.remit_date::timestamp AT TIME ZONE $3::text) AS at, s.remit_date::text AS day, 'transfer' AS kind,
       'system' AS actor, s.remit_date::text AS ref, NULL::bigint AS txn_id, s.set_cur::text AS currency, s.real_trans_amount AS amount, NULL::text AS status,
       s.txn_set_date::text || '.' || s.mer_id || '.' || s.bus_line || '.' || s.set_cur AS transfer_id
  FROM (${ORDER_TXNS}) t
  JOIN settlement s ON s.mer_id = t.mer_id AND s.bus_line = t.bus_line AND s.set_cur = t.settle_currency AND s.trans_amount > 0
                   AND t.settle_date BETWEEN s.recon_search_date AND s.txn_set_date
 WHERE t.settle_date IS NOT NULL`,
  },
  {
    // Disputes of the order's purchase (issue 48): opened, with its kind and state; closed when it was.
    key: 'dispute',
    sql: `
SELECT d.opened_at AS at, NULL::text AS day, 'dispute' AS kind, 'gateway' AS actor, d.gw_dispute_id || ' · ' || d.kind || ' ' || d.reason_code AS ref, d.purchase_id AS txn_id,
       d.currency::text AS currency, d.amount AS amount, d.state AS status, NULL::text AS transfer_id
  FROM dispute d WHERE d.mer_id = $1 AND d.purchase_id IN (SELECT t.id FROM (${ORDER_TXNS}) t)
UNION ALL
SELECT d.closed_at, NULL::text, 'disputeClosed', coalesce(d.outcome_by, 'gateway'), d.gw_dispute_id, d.purchase_id, d.currency::text, d.amount, d.state, NULL::text
  FROM dispute d WHERE d.mer_id = $1 AND d.closed_at IS NOT NULL AND d.purchase_id IN (SELECT t.id FROM (${ORDER_TXNS}) t)`,
  },
  {
    // The bank credit matched to the transfer that paid the order (issue 49 §2, module bankrec).
    key: 'bankCredit',
    sql: `
SELECT DISTINCT ON (e.id) (e.booking_date::timestamp AT TIME ZONE $3::text) AS at, e.booking_date::text AS day, 'bankCredit' AS kind,
       coalesce(m.confirmed_by, 'system') AS actor, coalesce(e.bank_ref, e.reference) AS ref, NULL::bigint AS txn_id, e.currency::text AS currency,
       e.amount_minor AS amount, m.state AS status,
       mt.txn_set_date::text || '.' || mt.mer_id || '.' || mt.bus_line || '.' || mt.set_cur AS transfer_id
  FROM (${ORDER_TXNS}) t
  JOIN settlement s ON s.mer_id = t.mer_id AND s.bus_line = t.bus_line AND s.set_cur = t.settle_currency AND s.trans_amount > 0
                   AND t.settle_date BETWEEN s.recon_search_date AND s.txn_set_date
  JOIN bank_match_transfer mt ON mt.mer_id = s.mer_id AND mt.bus_line = s.bus_line AND mt.set_cur = s.set_cur AND mt.txn_set_date = s.txn_set_date
  JOIN bank_match m ON m.id = mt.match_id AND m.mer_id = $1
  JOIN bank_match_entry me ON me.match_id = m.id
  JOIN bank_entry e ON e.id = me.entry_id
 WHERE t.settle_date IS NOT NULL`,
  },
  {
    key: 'audit',
    sql: `
SELECT a.at, NULL::text AS day, 'audit.' || a.action AS kind, a.username AS actor, a.target AS ref, NULL::bigint AS txn_id, NULL::text AS currency,
       NULL::bigint AS amount, a.outcome AS status, NULL::text AS transfer_id
  FROM audit_log a
 WHERE a.mer_id = $1 AND a.target IN (SELECT t.gw_trans_id FROM (${ORDER_TXNS}) t UNION ALL SELECT t.order_no FROM (${ORDER_TXNS}) t UNION ALL SELECT $2)`,
  },
];
