/** What every payout proof source is made of: its shape, the row behind a line, the transfer's ranges and the SQL of transaction lines, the type labels. */
import type { Language } from '@portal/contract';

export type Labels = Record<Language, string>;

export interface ProofSource {
  /** Stable key (the line's key is `key` or `key:part`). */
  readonly key: string;
  readonly label: Labels;
  /** The sign the source's lines normally carry: +1 adds to the deposit, −1 takes away, 0 either (manual entries). */
  readonly sign: 1 | -1 | 0;
  /** Transaction types whose money this source carries (the `other` source takes the rest). */
  readonly claims?: readonly string[];
  /** The source's line(s): how `part` is shown (e.g. brand and currency, a type name). */
  readonly partLabel?: (part: string, lang: Language) => string;
  /** Shown even when zero (the equation's main terms); other lines appear only when they carry money or rows. */
  readonly always?: boolean;
  readonly linesSql: string;
  readonly rowsSql: string;
}

/** One row behind a line, as every `rowsSql` answers it. */
export interface ProofRowDb {
  kind: 'txn' | 'reserve' | 'settlement';
  /** Transaction id (kind txn), else null. */
  txn_id: number | null;
  /** Order number (txn), else the row's own reference (reserve: its release date; settlement: its date). */
  ref: string;
  /** The settlement day the row counts on. */
  day: string;
  txn_date: string | null;
  txn_time: Date | null;
  brand: string | null;
  type: string | null;
  cur: string | null;
  txn_amount: number | null;
  rate: string | null;
  /** Signed contribution to the deposit, settlement minor units. */
  amount: number;
  /** Settled later than its cycle (the late path): shown on the day it settled, marked late. */
  late: boolean;
}

/** The transfer's transactions: its merchant, business line and currency, settled in its range. */
export const TXN_RANGE = `t.mer_id = $1 AND t.bus_line = $2 AND t.settle_currency = $3 AND t.settle_date BETWEEN $4::date AND $5::date AND t.settle_date IS NOT NULL`;
/** The transfer's settlement rows. */
export const SET_RANGE = `s.mer_id = $1 AND s.bus_line = $2 AND s.set_cur = $3 AND s.txn_set_date BETWEEN $4::date AND $5::date`;

export const safeTypes = (types: readonly string[]) => {
  for (const t of types) if (!/^[A-Z_-]+$/.test(t)) throw new Error(`proof source: bad type ${t}`);
  return `ARRAY[${types.map((t) => `'${t}'`).join(',')}]::text[]`;
};

/** A transaction row of a line: `value` the SQL of its contribution. */
export const txnRows = (where: string, value = 't.settle_amount') => `
SELECT 'txn' AS kind, t.id AS txn_id, t.order_no AS ref, t.settle_date::text AS day, t.txn_date::text AS txn_date, t.txn_time,
       t.payment_brand AS brand, t.tran_type AS type, t.currency::text AS cur, t.amount AS txn_amount, t.fx_rate::text AS rate,
       (${value})::bigint AS amount,
       t.settle_date > t.txn_date + coalesce(f.cycle_days, 1) AS late
  FROM txn t LEFT JOIN merchant_fee f ON f.mer_id = t.mer_id AND f.bus_line = t.bus_line
 WHERE ${TXN_RANGE} AND ${where}
 ORDER BY t.settle_date, t.txn_time, t.id`;

/** Transactions of the given types, one line per (brand, transaction currency): part 'brand|CUR'. */
export function byBrandAndCurrency(types: readonly string[]) {
  const arr = safeTypes(types);
  return {
    linesSql: `
SELECT coalesce(t.payment_brand, '') || '|' || t.currency AS part, count(*)::int AS n, sum(t.settle_amount)::bigint AS amount,
       t.currency::text AS cur, sum(t.amount)::bigint AS txn_amount, min(t.fx_rate)::text AS rate_min, max(t.fx_rate)::text AS rate_max
  FROM txn t WHERE ${TXN_RANGE} AND t.tran_type = ANY(${arr})
 GROUP BY coalesce(t.payment_brand, ''), t.currency ORDER BY 1`,
    rowsSql: txnRows(`t.tran_type = ANY(${arr}) AND coalesce(t.payment_brand, '') = split_part($6, '|', 1) AND t.currency = split_part($6, '|', 2)`),
  };
}

/** Transactions of the given types, one line per transaction currency: part 'CUR'. */
export function byCurrency(types: readonly string[]) {
  const arr = safeTypes(types);
  return {
    linesSql: `
SELECT t.currency::text AS part, count(*)::int AS n, sum(t.settle_amount)::bigint AS amount,
       t.currency::text AS cur, sum(t.amount)::bigint AS txn_amount, min(t.fx_rate)::text AS rate_min, max(t.fx_rate)::text AS rate_max
  FROM txn t WHERE ${TXN_RANGE} AND t.tran_type = ANY(${arr})
 GROUP BY t.currency ORDER BY 1`,
    rowsSql: txnRows(`t.tran_type = ANY(${arr}) AND t.currency = $6`),
  };
}

export const L = (en: string, zh: string, ko: string, ja: string): Labels => ({ en, zh, ko, ja });

/** Names of the transaction types the catch-all shows (its parts). */
export const TYPE_LABELS: Record<string, Labels> = {
  PURC: L('Purchases', '消费', '구매', '購入'),
  REFD: L('Refunds', '退款', '환불', '返金'),
  VOID: L('Voids', '撤销', '취소', '取消'),
  MANENTD: L('Manual entries', '手工调账', '수동 조정', '手動調整'),
  DISPUTE: L('Chargebacks', '拒付', '차지백', 'チャージバック'),
  DISPUTE_REVERSAL: L('Disputes won (credited back)', '拒付胜诉退回', '분쟁 승소 환입', 'チャージバック勝訴の戻し'),
  DISPUTE_FEE: L('Dispute fees', '拒付手续费', '분쟁 수수료', 'チャージバック手数料'),
  FREEZE: L('Funds frozen', '资金冻结', '자금 동결', '資金凍結'),
  UNFREEZE: L('Funds unfrozen', '资金解冻', '자금 동결 해제', '資金凍結解除'),
  PROFIT_INCOME: L('Revenue share credit', '分润收入', '수익 배분 입금', 'レベニューシェア入金'),
  PROFIT_OUTGO: L('Revenue share debit', '分润支出', '수익 배분 출금', 'レベニューシェア出金'),
  FEE_COLLECTION: L('Fee collection', '费用收取', '수수료 징수', '手数料徴収'),
};
