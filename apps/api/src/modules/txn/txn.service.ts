import { MAX_RANGE_DAYS, settleStateOf, type TxnDetail, type TxnFilter, type TxnQuery } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { badRequest, notFound } from '../../lib/errors';
import { countTxn, findDetail, findFamily, listTxn, money, toTxnRow, totalsTxn, txnWhere } from './txn.repo';
import { daysBetween, formatInZone } from './time';

/** Rejects an inverted range or one longer than three months (spec §5). */
export function checkRange(begin: string | undefined, end: string | undefined): void {
  if (begin && end) {
    if (begin > end) throw badRequest('beginDate must not be after endDate');
    if (daysBetween(begin, end) > MAX_RANGE_DAYS) throw badRequest('the selected time range cannot exceed three months');
  }
}

export async function listTransactions(deps: Deps, scope: string[], q: TxnQuery) {
  checkRange(q.beginDate, q.endDate);
  if (!scope.length) return { content: [], totalElements: 0 };
  const w = txnWhere(q, scope, deps.config.platformTz);
  const [rows, total] = await Promise.all([listTxn(deps.db, w, q.page, q.size), countTxn(deps.db, w)]);
  return { content: rows.map((r) => toTxnRow(r, deps.config.platformTz)), totalElements: total };
}

export async function txnTotals(deps: Deps, scope: string[], f: TxnFilter) {
  checkRange(f.beginDate, f.endDate);
  if (!scope.length) return [];
  return totalsTxn(deps.db, txnWhere(f, scope, deps.config.platformTz));
}

const mask = (first6: string | null, last4: string | null) => (first6 && last4 ? `${first6}******${last4}` : null);

/** Detail of one transaction of the caller's merchants (another merchant's answers as absent). */
export async function txnDetail(deps: Deps, scope: string[], id: number): Promise<TxnDetail> {
  const tz = deps.config.platformTz;
  const r = await findDetail(deps.db, id, scope);
  if (!r) throw notFound();
  const rootId = r.tran_type === 'PURC' || !r.origin_txn_id ? r.id : r.origin_txn_id;
  const family = await findFamily(deps.db, rootId, scope);
  const refundable = r.tran_type === 'PURC' && r.gw_response === '00' ? r.amount - r.return_amount : 0;
  const row = toTxnRow(r, tz);
  return {
    id: r.id,
    gwResponse: r.gw_response,
    respMsg: r.resp_msg,
    currentTime: formatInZone(r.txn_time, tz),
    gwAmount: row.gwAmount,
    gwCurrency: r.currency,
    gwTranType: r.tran_type,
    gwGTransId: r.gw_trans_id,
    gw_trans_id: r.channel_order_no,
    gwDate: r.settle_date,
    gwReconFlag: r.settle_flag,
    settleState: settleStateOf(r.settle_flag, r.gw_response),
    paymentBrand: r.payment_brand,
    merName: r.mer_name,
    msettleCurrency: r.settle_currency,
    settlefeeAmount: r.settle_amount === null ? [] : [{ currency: r.settle_currency!, amount: money(r.settle_amount, r.settle_currency) }],
    settlefee: r.settle_fee === null ? [] : [{ currency: r.settle_currency!, amount: money(r.settle_fee, r.settle_currency) }],
    backResponseToG: { accNo: mask(r.card_first6, r.card_last4), respCode: r.gw_response, respMsg: r.resp_msg },
    backResponseToMerchant: { respCode: r.gw_response, respMsg: r.resp_msg, orderNo: r.order_no, amount: row.gwAmount, currency: r.currency },
    mrequest: {
      version: r.version,
      orderNum: r.order_no,
      orderCurrency: r.order_currency,
      orderAmount: money(r.order_amount, r.order_currency),
      returnAmount: money(r.return_amount, r.currency),
      clientid: r.mer_id,
      merReserve: r.mer_reserve,
      storeName: r.store_name,
      storeId: r.store_id,
      paymentSchema: r.payment_schema,
      subBrandCode: r.sub_brand_code,
      originorderno: r.origin_order_no,
      backURL: r.back_url,
      frontURL: r.front_url,
    },
    refundable: money(refundable, r.currency),
    associated: family.map((f) => toTxnRow(f, tz)),
    shipping: r.shipment_no
      ? { shipmentNo: r.shipment_no, company: r.company ?? '', shipDate: r.ship_date ?? '', status: r.ship_status ?? '' }
      : null,
  };
}
