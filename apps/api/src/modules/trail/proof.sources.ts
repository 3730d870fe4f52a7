/**
 * The payout proof's line sources (issue 49 §1, decision 061). A transfer is proved as a list of
 * lines whose signed amounts add up to the amount sent to the bank; each line comes from one
 * source below. A source is data, not code: its key, its label, the sign its lines normally carry
 * and two SQL texts — the line(s) it contributes and the rows of one of its lines.
 *
 * EXTENSION POINT: a module that moves money into or out of a transfer (disputes, after the merge)
 * adds ONE entry to `PROOF_SOURCES` (its `index.ts` exports the source; this list imports it).
 * If its money is carried by transaction types of its own, it names them in `claims`: the catch-all
 * `other` source below then leaves them out, so nothing is counted twice. The property test
 * (`proof.property.test.ts`) checks every source of the list: the lines sum to the transfer, each
 * line's rows sum to the line.
 *
 * Every SQL text takes the same parameters, those of the transfer:
 *   $1 merchant, $2 business line, $3 settlement currency, $4 first settlement date the transfer
 *   carries (the row's recon_search_date), $5 its settlement date (txn_set_date).
 * `linesSql` answers one row per line: `part` (text, '' for a one-line source), `n` (rows behind
 * it), `amount` (bigint: its signed contribution to the deposit, settlement minor units) and, for
 * transaction lines, `cur`, `txn_amount` (Σ in the transaction currency), `rate_min`, `rate_max`.
 * `rowsSql` takes $6 the line's part and answers the rows in display order with the columns of
 * `ProofRowDb`; their `amount` column sums to the line's amount.
 */
import { SETTLING_TYPES, brandName } from '@portal/contract';
import { byBrandAndCurrency, byCurrency, L, safeTypes, SET_RANGE, TXN_RANGE, txnRows, TYPE_LABELS, type ProofSource } from './proof.rows';

export { TYPE_LABELS, type Labels, type ProofRowDb, type ProofSource } from './proof.rows';

const sales: ProofSource = {
  key: 'settled',
  label: L('Transactions settled', '已结算交易', '정산된 거래', '精算済み取引'),
  sign: 1,
  always: true,
  claims: ['PURC'],
  partLabel: (part) => {
    const [brand, cur] = part.split('|');
    return `${brand ? brandName(brand) : '—'} · ${cur}`;
  },
  ...byBrandAndCurrency(['PURC']),
};

const refunds: ProofSource = {
  key: 'refunds',
  label: L('Refunds and voids', '退款与撤销', '환불 및 취소', '返金・取消'),
  sign: -1,
  always: true,
  claims: ['REFD', 'VOID'],
  ...byCurrency(['REFD', 'VOID']),
};

const fees: ProofSource = {
  key: 'fees',
  label: L('MDR and fixed fees', 'MDR 及固定手续费', 'MDR 및 고정 수수료', 'MDR・固定手数料'),
  sign: -1,
  always: true,
  linesSql: `
SELECT '' AS part, count(*) FILTER (WHERE t.settle_fee <> 0)::int AS n, coalesce(-sum(t.settle_fee), 0)::bigint AS amount,
       NULL::text AS cur, NULL::bigint AS txn_amount, NULL::text AS rate_min, NULL::text AS rate_max
  FROM txn t WHERE ${TXN_RANGE}`,
  rowsSql: txnRows(`t.settle_fee <> 0`, '-t.settle_fee'),
};

const manual: ProofSource = {
  key: 'manual',
  label: L('Manual entries', '手工调账', '수동 조정', '手動調整'),
  sign: 0,
  claims: ['MANENTD'],
  ...byCurrency(['MANENTD']),
};

/** Reserve held on the transfer's settlement days (the settlement rows' servAmount; rows: the reserve entries). */
const reserveHeld: ProofSource = {
  key: 'reserveHeld',
  label: L('Reserve held', '预留保证金', '보증금 적립', '保証金の留保'),
  sign: -1,
  always: true,
  linesSql: `
SELECT '' AS part, count(*) FILTER (WHERE s.serv_amount <> 0)::int AS n, coalesce(-sum(s.serv_amount), 0)::bigint AS amount,
       NULL::text AS cur, NULL::bigint AS txn_amount, NULL::text AS rate_min, NULL::text AS rate_max
  FROM settlement s WHERE ${SET_RANGE}`,
  rowsSql: `
SELECT 'reserve' AS kind, NULL::bigint AS txn_id, r.release_date::text AS ref, r.txn_set_date::text AS day, NULL::text AS txn_date, NULL::timestamptz AS txn_time,
       NULL::text AS brand, NULL::text AS type, NULL::text AS cur, NULL::bigint AS txn_amount, NULL::text AS rate, -r.amount AS amount, false AS late
  FROM reserve r
 WHERE r.mer_id = $1 AND r.bus_line = $2 AND r.set_cur = $3 AND r.txn_set_date BETWEEN $4::date AND $5::date AND r.amount <> 0
 ORDER BY r.txn_set_date`,
};

/** Reserve released on the transfer's settlement days (releasedAmount; rows: the reserve entries released then). */
const reserveReleased: ProofSource = {
  key: 'reserveReleased',
  label: L('Reserve released', '释放保证金', '보증금 해제', '保証金の解放'),
  sign: 1,
  always: true,
  linesSql: `
SELECT '' AS part, count(*) FILTER (WHERE s.released_amount <> 0)::int AS n, coalesce(sum(s.released_amount), 0)::bigint AS amount,
       NULL::text AS cur, NULL::bigint AS txn_amount, NULL::text AS rate_min, NULL::text AS rate_max
  FROM settlement s WHERE ${SET_RANGE}`,
  rowsSql: `
SELECT 'reserve' AS kind, NULL::bigint AS txn_id, r.txn_set_date::text AS ref, r.release_date::text AS day, NULL::text AS txn_date, NULL::timestamptz AS txn_time,
       NULL::text AS brand, NULL::text AS type, NULL::text AS cur, NULL::bigint AS txn_amount, NULL::text AS rate, r.amount AS amount, false AS late
  FROM reserve r
 WHERE r.mer_id = $1 AND r.bus_line = $2 AND r.set_cur = $3 AND r.released AND r.release_date BETWEEN $4::date AND $5::date AND r.amount <> 0
 ORDER BY r.release_date, r.txn_set_date`,
};

/**
 * Every other settled transaction type (chargebacks, freezes, revenue share, fee collection — and any
 * type no source claims), one line per type: part = the type. Built from the other sources' claims.
 */
function otherTypes(claimed: readonly string[]): ProofSource {
  const rest = SETTLING_TYPES.filter((t) => !claimed.includes(t));
  const arr = safeTypes(rest.length ? rest : ['NONE']);
  return {
    key: 'other',
    label: L('Other transaction types', '其他交易类型', '기타 거래 유형', 'その他の取引種別'),
    sign: 0,
    partLabel: (part, lang) => TYPE_LABELS[part]?.[lang] ?? part,
    linesSql: `
SELECT t.tran_type AS part, count(*)::int AS n, sum(t.settle_amount)::bigint AS amount,
       NULL::text AS cur, NULL::bigint AS txn_amount, NULL::text AS rate_min, NULL::text AS rate_max
  FROM txn t WHERE ${TXN_RANGE} AND t.tran_type = ANY(${arr})
 GROUP BY t.tran_type ORDER BY 1`,
    rowsSql: txnRows(`t.tran_type = ANY(${arr}) AND t.tran_type = $6`),
  };
}

/** A balance carried into the transfer's first day from before its range (the roll-forward's history; 0 by construction). */
const carried: ProofSource = {
  key: 'carried',
  label: L('Balance carried from before', '期初结转余额', '이전 이월 잔액', '前期繰越残高'),
  sign: 0,
  linesSql: `
SELECT '' AS part, count(*)::int AS n, coalesce(sum(s.history_pending), 0)::bigint AS amount,
       NULL::text AS cur, NULL::bigint AS txn_amount, NULL::text AS rate_min, NULL::text AS rate_max
  FROM (SELECT s.history_pending FROM settlement s WHERE ${SET_RANGE} ORDER BY s.txn_set_date LIMIT 1) s WHERE s.history_pending <> 0`,
  rowsSql: `
SELECT 'settlement' AS kind, NULL::bigint AS txn_id, s.txn_set_date::text AS ref, s.txn_set_date::text AS day, NULL::text AS txn_date, NULL::timestamptz AS txn_time,
       NULL::text AS brand, NULL::text AS type, NULL::text AS cur, NULL::bigint AS txn_amount, NULL::text AS rate, s.history_pending AS amount, false AS late
  FROM (SELECT s.* FROM settlement s WHERE ${SET_RANGE} ORDER BY s.txn_set_date LIMIT 1) s WHERE s.history_pending <> 0`,
};

const transferFee: ProofSource = {
  key: 'transferFee',
  label: L('Transfer fee', '转账手续费', '송금 수수료', '振込手数料'),
  sign: -1,
  always: true,
  linesSql: `
SELECT '' AS part, count(*) FILTER (WHERE s.tran_fee <> 0)::int AS n, coalesce(-sum(s.tran_fee), 0)::bigint AS amount,
       NULL::text AS cur, NULL::bigint AS txn_amount, NULL::text AS rate_min, NULL::text AS rate_max
  FROM settlement s WHERE s.mer_id = $1 AND s.bus_line = $2 AND s.set_cur = $3 AND s.txn_set_date = $5::date AND $4::date <= $5::date`,
  rowsSql: `
SELECT 'settlement' AS kind, NULL::bigint AS txn_id, coalesce(s.remit_date::text, '') AS ref, s.txn_set_date::text AS day, NULL::text AS txn_date, NULL::timestamptz AS txn_time,
       NULL::text AS brand, NULL::text AS type, NULL::text AS cur, NULL::bigint AS txn_amount, NULL::text AS rate, -s.tran_fee AS amount, false AS late
  FROM settlement s WHERE s.mer_id = $1 AND s.bus_line = $2 AND s.set_cur = $3 AND s.txn_set_date = $5::date AND $4::date <= $5::date AND s.tran_fee <> 0`,
};

/**
 * Disputes (issue 48): the chargeback debits, the credits of disputes won and the dispute fees are
 * ledger rows of their own types (DISPUTE, DISPUTE_REVERSAL, DISPUTE_FEE; decision 060), one line
 * each per transaction currency. Their `settle_amount` carries the movement (the fee row's too).
 */
const disputeDebits: ProofSource = {
  key: 'disputeDebits',
  label: L('Chargebacks (disputed amounts debited)', '拒付（扣回争议金额）', '차지백 (분쟁 금액 차감)', 'チャージバック（争議額の引落し）'),
  sign: -1,
  claims: ['DISPUTE'],
  ...byCurrency(['DISPUTE']),
};
const disputeCredits: ProofSource = {
  key: 'disputeCredits',
  label: L('Disputes won (credited back)', '拒付胜诉退回', '분쟁 승소 환입', 'チャージバック勝訴の戻し'),
  sign: 1,
  claims: ['DISPUTE_REVERSAL'],
  ...byCurrency(['DISPUTE_REVERSAL']),
};
const disputeFees: ProofSource = {
  key: 'disputeFees',
  label: L('Dispute fees', '拒付手续费', '분쟁 수수료', 'チャージバック手数料'),
  sign: -1,
  claims: ['DISPUTE_FEE'],
  ...byCurrency(['DISPUTE_FEE']),
};
/** The dispute lines, in the equation's order (after the manual entries). */
export const DISPUTE_SOURCES: readonly ProofSource[] = [disputeDebits, disputeCredits, disputeFees];

/**
 * The list in the equation's order: the sources, the extra ones (another module's, e.g. disputes),
 * then the catch-all over the types none of them claims, then the transfer fee.
 */
export function proofSources(extra: readonly ProofSource[] = []): ProofSource[] {
  const main = [carried, sales, refunds, fees, reserveHeld, reserveReleased, manual, ...extra];
  return [...main, otherTypes(main.flatMap((x) => x.claims ?? [])), transferFee];
}

/**
 * Every transfer's proof, its export and /v1 read this list. To add lines (issue 48's dispute
 * debits, credits and fees after the merge), pass the module's sources here — one entry.
 */
export const PROOF_SOURCES: readonly ProofSource[] = proofSources(DISPUTE_SOURCES);

/** Sources by key. */
export const sourceOf = (key: string, list: readonly ProofSource[] = PROOF_SOURCES) => list.find((s) => s.key === key);
