import { toDecimal, type BillRow, type ReserveRow, type SummaryRow, type TransferRow } from '@portal/contract';
import type { ReserveDbRow, SettlementDbRow, SummaryDbRow } from './report.repo';

/** Minor units → the wire's decimal string in the currency's exponent. */
export const money = (minor: number, currency: string) => toDecimal(minor, currency.trim());

/** The columns the bill and the transfer/settlement rows share. */
function settlementHead(r: SettlementDbRow, cur: string) {
  return {
    txnSetDate: r.txn_set_date,
    clientid: r.mer_id,
    merName: r.mer_name,
    instCodeBriefName: r.acquirer,
    merTxnSet: cur,
    reconSetAmount: money(r.recon_set_amount, cur),
  };
}

export function toBillRow(r: SettlementDbRow): BillRow {
  const cur = r.set_cur.trim();
  return {
    ...settlementHead(r, cur),
    historyPendingAmount: money(r.history_pending, cur),
    totalPendingAmount: money(r.total_pending, cur),
    transAmount: money(r.trans_amount, cur),
    reconBusiness: r.bus_line,
    reconSearchDate: r.recon_search_date,
  };
}

export function toTransferRow(r: SettlementDbRow): TransferRow {
  const cur = r.set_cur.trim();
  return {
    ...settlementHead(r, cur),
    servAmount: money(r.serv_amount, cur),
    releasedAmount: money(r.released_amount, cur),
    realTransAmountBeforeTransFee: money(r.real_trans_before_fee, cur),
    tranFee: money(r.tran_fee, cur),
    realTransAmount: money(r.real_trans_amount, cur),
    tranThreshold: money(r.tran_threshold, cur),
    transPeriod: r.trans_period,
    remitDate: r.remit_date,
    reconSearchDate: r.recon_search_date,
    reconBusiness: r.bus_line,
  };
}

export function toSummaryRow(r: SummaryDbRow): SummaryRow {
  const txnCur = r.txn_cur.trim();
  const setCur = r.set_cur.trim();
  const row: SummaryRow = {
    txnSetDate: r.txn_set_date,
    clientid: r.mer_id,
    merName: r.mer_name,
    instCodeBriefName: r.acquirer,
    txnType: r.txn_type,
    txnCount: r.txn_count,
    merTxnCur: txnCur,
    merTxnAmount: money(r.txn_amount, txnCur),
    merMDRAmount: money(r.mdr_amount, setCur),
    merTxnSet: setCur,
    txnSetAmount: money(r.settle_amount, setCur),
    txnFee: money(r.fee, setCur),
  };
  if (r.payment_brand !== undefined) row.paymentBrand = r.payment_brand;
  return row;
}

export function toReserveRow(r: ReserveDbRow): ReserveRow {
  const cur = r.set_cur.trim();
  return {
    txnSetDate: r.txn_set_date,
    clientid: r.mer_id,
    merName: r.mer_name,
    business: r.bus_line,
    merTxnSet: cur,
    releaseAmount: money(r.amount, cur),
    releaseDate: r.release_date,
    transferDate: r.transfer_date,
    released: r.released,
  };
}
