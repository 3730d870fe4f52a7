import type { Range, ReserveRanges } from './report.filter';
import { Conditions, type Listing } from './report.query';

/** SQL of the four reports. Every listing takes the caller's merchant scope as a required argument. */

export interface SettlementDbRow extends Record<string, unknown> {
  txn_set_date: string;
  mer_id: string;
  mer_name: string;
  acquirer: string;
  bus_line: string;
  set_cur: string;
  recon_set_amount: number;
  history_pending: number;
  total_pending: number;
  trans_amount: number;
  serv_amount: number;
  released_amount: number;
  real_trans_before_fee: number;
  tran_fee: number;
  real_trans_amount: number;
  tran_threshold: number;
  trans_period: string;
  remit_date: string | null;
  recon_search_date: string;
}

/** Bill and transfer reports: the settlement run's rows (one per date, merchant, business line, currency). */
export function settlementListing(scope: string[], settlement: Range, remit?: Range): Listing {
  const c = new Conditions().add('s.mer_id = ANY(?::text[])', scope).add('s.txn_set_date BETWEEN ?::date AND ?::date', settlement.begin, settlement.end);
  if (remit) c.add('s.remit_date BETWEEN ?::date AND ?::date', remit.begin, remit.end);
  return {
    inner: `SELECT s.txn_set_date, s.mer_id, m.name AS mer_name, coalesce(a.brief_name, '') AS acquirer, s.bus_line, s.set_cur,
                   s.recon_set_amount, s.history_pending, s.total_pending, s.trans_amount, s.serv_amount, s.released_amount,
                   s.real_trans_before_fee, s.tran_fee, s.real_trans_amount, s.tran_threshold, s.trans_period, s.remit_date,
                   s.recon_search_date
              FROM settlement s JOIN merchant m ON m.mer_id = s.mer_id LEFT JOIN acquirer a ON a.id = m.acquirer_id
             WHERE ${c.sql}`,
    countInner: `SELECT 1 FROM settlement s WHERE ${c.sql}`,
    params: c.params,
    date: 'txn_set_date',
    keys: ['mer_id', 'bus_line', 'set_cur'],
  };
}

export interface SummaryDbRow extends Record<string, unknown> {
  txn_set_date: string;
  mer_id: string;
  mer_name: string;
  acquirer: string;
  payment_brand?: string;
  txn_type: string;
  txn_cur: string;
  set_cur: string;
  txn_count: number;
  txn_amount: number;
  mdr_amount: number;
  settle_amount: number;
  fee: number;
}

export interface SummaryFilter {
  settlement: Range;
  type?: string;
  brands?: string[];
}

/**
 * Daily summary by payment brand (upgraded) or, with `byBrand` false, the original report: the
 * same rows summed over brands (no brand column, brand filter ignored).
 */
export function summaryListing(scope: string[], f: SummaryFilter, byBrand: boolean): Listing {
  const c = new Conditions().add('ss.mer_id = ANY(?::text[])', scope).add('ss.txn_set_date BETWEEN ?::date AND ?::date', f.settlement.begin, f.settlement.end);
  if (f.type) c.add('ss.txn_type = ?', f.type);
  if (byBrand && f.brands?.length) c.add('ss.payment_brand = ANY(?::text[])', f.brands);
  const from = `FROM settlement_summary ss JOIN merchant m ON m.mer_id = ss.mer_id WHERE ${c.sql}`;
  if (byBrand) {
    return {
      inner: `SELECT ss.txn_set_date, ss.mer_id, m.name AS mer_name, ss.acquirer, ss.payment_brand, ss.txn_type, ss.txn_cur, ss.set_cur,
                     ss.txn_count::int8 AS txn_count, ss.txn_amount, ss.mdr_amount, ss.settle_amount, ss.fee ${from}`,
      countInner: `SELECT 1 FROM settlement_summary ss WHERE ${c.sql}`,
      params: c.params,
      date: 'txn_set_date',
      keys: ['mer_id', 'payment_brand', 'txn_type', 'txn_cur', 'set_cur', 'acquirer'],
    };
  }
  return {
    inner: `SELECT ss.txn_set_date, ss.mer_id, min(m.name) AS mer_name, ss.acquirer, ss.txn_type, ss.txn_cur, ss.set_cur,
                   sum(ss.txn_count)::int8 AS txn_count, sum(ss.txn_amount)::int8 AS txn_amount, sum(ss.mdr_amount)::int8 AS mdr_amount,
                   sum(ss.settle_amount)::int8 AS settle_amount, sum(ss.fee)::int8 AS fee ${from}
             GROUP BY ss.txn_set_date, ss.mer_id, ss.acquirer, ss.txn_type, ss.txn_cur, ss.set_cur`,
    countInner: `SELECT 1 FROM settlement_summary ss WHERE ${c.sql} GROUP BY ss.txn_set_date, ss.mer_id, ss.acquirer, ss.txn_type, ss.txn_cur, ss.set_cur`,
    params: c.params,
    date: 'txn_set_date',
    keys: ['mer_id', 'txn_type', 'txn_cur', 'set_cur', 'acquirer'],
  };
}

export interface ReserveDbRow extends Record<string, unknown> {
  txn_set_date: string;
  mer_id: string;
  mer_name: string;
  bus_line: string;
  set_cur: string;
  amount: number;
  release_date: string;
  transfer_date: string | null;
  released: boolean;
}

/** Reserve (guarantee deposit) rows held on settlement days, with their release and transfer dates. */
export function reserveListing(scope: string[], r: ReserveRanges): Listing {
  const c = new Conditions().add('r.mer_id = ANY(?::text[])', scope).add('r.amount > 0');
  if (r.settlement) c.add('r.txn_set_date BETWEEN ?::date AND ?::date', r.settlement.begin, r.settlement.end);
  if (r.release) c.add('r.release_date BETWEEN ?::date AND ?::date', r.release.begin, r.release.end);
  if (r.remit) c.add('r.transfer_date BETWEEN ?::date AND ?::date', r.remit.begin, r.remit.end);
  if (r.transfer) c.add('r.transfer_date BETWEEN ?::date AND ?::date', r.transfer.begin, r.transfer.end);
  return {
    inner: `SELECT r.txn_set_date, r.mer_id, m.name AS mer_name, r.bus_line, r.set_cur, r.amount, r.release_date, r.transfer_date, r.released
              FROM reserve r JOIN merchant m ON m.mer_id = r.mer_id WHERE ${c.sql}`,
    countInner: `SELECT 1 FROM reserve r WHERE ${c.sql}`,
    params: c.params,
    date: 'txn_set_date',
    keys: ['mer_id', 'bus_line', 'set_cur'],
  };
}
