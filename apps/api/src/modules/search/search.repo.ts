import { keyTimeBounds } from '../../db/partitions';
import { PREPARED, type Queryable } from '../../db/db';

export interface SearchRow {
  id: string;
  kind: 'txn' | 'refund' | 'payByLink' | 'payInStore';
  match: 'orderNo' | 'channelOrderNo' | 'gwTransId' | 'refundId' | 'payLinkOrderNo' | 'invoiceId';
  mer_id: string;
  mer_name: string;
  order_no: string;
  type: string;
  status: string | null;
  amount: string;
  currency: string;
  time: string;
}

export interface SearchWhat {
  /** Transactions and refunds (txn:detail). */
  txn: boolean;
  /** Order categories of pay_by_link_order the caller may see: 'paybylink', 'payinstore'. */
  orderCategories: string[];
}

const TXN = `SELECT t.id::text AS id, CASE WHEN t.tran_type = 'REFD' THEN 'refund' ELSE 'txn' END AS kind, %MATCH% AS match,
       t.mer_id, t.order_no, t.tran_type AS type, t.gw_response AS status, (t.amount * t.amount_sign)::text AS amount, trim(t.currency) AS currency,
       to_char(t.txn_time AT TIME ZONE $3::text, 'YYYY-MM-DD HH24:MI:SS') AS time, t.txn_time AS at
  FROM txn t WHERE t.mer_id = ANY($1::text[]) AND `;
const ORDER = (cats: string) => `SELECT o.id::text AS id, CASE WHEN o.prod_category = 'payinstore' THEN 'payInStore' ELSE 'payByLink' END AS kind, %MATCH% AS match,
       o.mer_id, o.order_no, o.status AS type, o.open_status AS status, o.total_amount::text AS amount, trim(o.order_currency) AS currency,
       to_char(o.created_at AT TIME ZONE $3::text, 'YYYY-MM-DD HH24:MI:SS') AS time, o.created_at AS at
  FROM pay_by_link_order o WHERE o.mer_id = ANY($1::text[]) AND o.prod_category = ANY(${cats}::text[]) AND `;

/**
 * Every record of `scope` one of whose ids equals `q` exactly, in one statement: a UNION ALL of
 * index probes (decision 022) — merchant order number (txn (mer_id, order_no)), gateway id
 * (txn.gw_trans_id), channel order number (txn_channel_order_idx), refund id (txn primary key,
 * REFD only), pay-link / in-store order number (pay_by_link_order.order_no) and invoice id
 * (pay_by_link_order (mer_id, recon_id)). Newest first, at most `limit`.
 */
export async function searchIds(q: Queryable, scope: string[], text: string, what: SearchWhat, zone: string, limit: number): Promise<SearchRow[]> {
  if (!scope.length) return [];
  const branches: string[] = [];
  const params: unknown[] = [scope, text, zone];
  if (what.txn) {
    const txn = TXN;
    // The ids txn_key holds (order number, gateway id, id) are bounded by the row's time from it:
    // only the month holding the row is read (keyTimeBounds). The channel's order number is not
    // a key: it probes each month's index.
    const scoped = 'k.mer_id = ANY($1::text[])';
    branches.push(txn.replace('%MATCH%', `'orderNo'`) + `t.order_no = $2 AND ${keyTimeBounds(scoped, 'k.order_no = $2')}`);
    branches.push(txn.replace('%MATCH%', `'gwTransId'`) + `t.gw_trans_id = $2 AND ${keyTimeBounds(scoped, 'k.gw_trans_id = $2')}`);
    branches.push(txn.replace('%MATCH%', `'channelOrderNo'`) + 't.channel_order_no = $2');
    if (/^[1-9]\d{0,17}$/.test(text)) {
      params.push(text);
      const id = `$${params.length}::int8`;
      branches.push(txn.replace('%MATCH%', `'refundId'`) + `t.id = ${id} AND t.tran_type = 'REFD' AND ${keyTimeBounds(scoped, `k.id = ${id}`)}`);
    }
  }
  if (what.orderCategories.length) {
    params.push(what.orderCategories);
    const order = ORDER(`$${params.length}`);
    branches.push(order.replace('%MATCH%', `'payLinkOrderNo'`) + 'o.order_no = $2');
    branches.push(order.replace('%MATCH%', `'invoiceId'`) + 'o.recon_id = $2');
  }
  if (!branches.length) return [];
  params.push(limit);
  const sql = `SELECT h.id, h.kind, h.match, h.mer_id, m.name AS mer_name, h.order_no, h.type, h.status, h.amount, h.currency, h.time
    FROM (${branches.map((b) => `(${b} LIMIT $${params.length})`).join('\n UNION ALL ')}) h
    JOIN merchant m ON m.mer_id = h.mer_id
   ORDER BY h.at DESC, h.kind, h.id DESC
   LIMIT $${params.length}`;
  return (await q.query<SearchRow>(sql, params, PREPARED)).rows;
}
