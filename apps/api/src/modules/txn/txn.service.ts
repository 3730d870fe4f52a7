import { Code, MAX_RANGE_DAYS, TXN_COUNT_BUDGET, TXN_MAX_OFFSET, settleStateOf, type TxnPage, type TxnDetail, type TxnFilter, type TxnQuery, type TakingsQuery, type Takings } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { rangeTooLong, reversedRange } from '../../lib/validation';
import { countTxn, countTxnUpTo, firstPageCounted } from './txn.count';
import { findDetail, findFamily, listTxn, totalsTxn, takingsTxn, txnKey, txnWhere, type Where } from './txn.repo';
import { LIST_COLUMNS, listRow, money, toTxnRow, type ListDbRow } from './txn.row';
import type { Queryable } from '../../db/db';
import { daysBetween, formatInZone } from './time';

/** Rejects an inverted range or one longer than three months (spec §5). */
export function checkRange(begin: string | undefined, end: string | undefined): void {
  if (begin && end) {
    if (begin > end) throw reversedRange();
    if (daysBetween(begin, end) > MAX_RANGE_DAYS) throw rangeTooLong();
  }
}

/**
 * A page of the list. Its cost does not grow with the merchant's size: the total is counted up to
 * TXN_COUNT_BUDGET (exactly only when asked), offsets stay below TXN_MAX_OFFSET, and a page asked
 * for with `after` (the pager's Next) is read by keyset, as cheap as page 1 however deep.
 */
export async function listTransactions(deps: Deps, scope: string[], q: TxnQuery): Promise<TxnPage> {
  checkRange(q.beginDate, q.endDate);
  if (q.page * q.size >= TXN_MAX_OFFSET) throw new AppError(Code.BAD_REQUEST, 'txnPageTooDeep', { max: TXN_MAX_OFFSET.toLocaleString('en-US') }, 400);
  if (!scope.length) return { content: [], totalElements: 0, totalExact: true };
  const w = txnWhere(q, scope, deps.config.platformTz);
  const exact = q.exactTotal === 'true';
  const { rows, n } = await pageWithCount(deps.db.read, w, scope, { page: q.page, size: q.size, after: q.after, exact });
  const totalExact = exact || n <= TXN_COUNT_BUDGET;
  return { content: rows.map((r) => toTxnRow(r, deps.config.platformTz)), totalElements: totalExact ? n : TXN_COUNT_BUDGET, totalExact };
}

/**
 * The page and its count (exact, or bounded at TXN_COUNT_BUDGET) — the list's statements, also run
 * raw by the benchmark. Next in the pager names the last row it showed (`after`): the page is read
 * from there (keyset). A cursor not found in scope is ignored (the offset serves), so a stale or
 * foreign one changes nothing. Page 1 and its bounded count are one statement (firstPageCounted).
 * Otherwise the cursor's look-up and the page go one after the other and the count runs beside
 * them — except for a page found by offset at or past the budget: a row there proves that more
 * than the budget match, so the count (which would walk the same first entries again) runs only
 * when that page is empty.
 */
export async function pageWithCount(db: Queryable, w: Where, scope: string[], o: { page: number; size: number; after?: string; exact: boolean }): Promise<{ rows: ListDbRow[]; n: number }> {
  const page = async () => {
    const after = o.after && o.page > 0 ? await txnKey(db, Number(o.after), scope) : null;
    return (await listTxn<{ r: unknown[] }>(db, w, o.page, o.size, after, LIST_COLUMNS)).map(listRow);
  };
  const count = () => (o.exact ? countTxn(db, w) : countTxnUpTo(db, w, TXN_COUNT_BUDGET));
  // Page 1 (the list as it opens, and every search): the page and its bounded count in one statement.
  if (!o.exact && o.page === 0) return firstPageCounted(db, w, o.size, TXN_COUNT_BUDGET);
  if (!o.exact && !o.after && o.page * o.size >= TXN_COUNT_BUDGET) {
    const rows = await page();
    return { rows, n: rows.length ? TXN_COUNT_BUDGET + 1 : await count() };
  }
  const [rows, n] = await Promise.all([page(), count()]);
  return { rows, n };
}

export async function txnTotals(deps: Deps, scope: string[], f: TxnFilter) {
  checkRange(f.beginDate, f.endDate);
  if (!scope.length) return [];
  return totalsTxn(deps.db.read, txnWhere(f, scope, deps.config.platformTz));
}

/** The takings of a period, per currency, store and brand (the phone home screen, issue 29). */
export async function txnTakings(deps: Deps, scope: string[], q: TakingsQuery): Promise<Takings> {
  checkRange(q.beginDate, q.endDate);
  if (!scope.length) return { totals: [], stores: [], brands: [] };
  return takingsTxn(deps.db.read, txnWhere({ beginDate: q.beginDate, endDate: q.endDate } as TxnFilter, scope, deps.config.platformTz));
}

const mask = (first6: string | null, last4: string | null) => (first6 && last4 ? `${first6}******${last4}` : null);

/** Detail of one transaction of the caller's merchants (another merchant's answers as absent). */
export async function txnDetail(deps: Deps, scope: string[], id: number): Promise<TxnDetail> {
  const tz = deps.config.platformTz;
  const r = await findDetail(deps.db, id, scope);
  if (!r) throw notFound();
  const rootId = r.tran_type === 'PURC' || !r.origin_txn_id ? r.id : r.origin_txn_id;
  const family = await findFamily(deps.db, rootId, scope);
  const refundable = r.tran_type === 'PURC' && r.gw_response === '00' ? Math.max(0, r.amount - r.return_amount - (r.disputed_amount ?? 0)) : 0;
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
    shipping: r.shipment_no ? { shipmentNo: r.shipment_no, company: r.company ?? '', shipDate: r.ship_date ?? '', status: r.ship_status ?? '' } : null,
  };
}
