import { Perm, brandName, type Language, type ReportFilter } from '@portal/contract';
import type { ExportColumn } from '../export';
import { readRange, reserveRanges, settlementRange, spanDays } from './report.filter';
import { REPORT_FILE_TITLES, REPORT_LABELS as L, periodLabel } from './report.labels';
import { reserveListing, settlementListing, summaryListing, type ReserveDbRow, type SettlementDbRow, type SummaryDbRow } from './report.repo';
import type { Listing } from './report.query';
import { money, toBillRow, toReserveRow, toSummaryRow, toTransferRow } from './report.rows';

export type ReportKind = 'bill' | 'transfer' | 'summary' | 'summaryOld' | 'reserve';

/** Everything one report needs: permission, query, row shape, export columns and title. */
export interface ReportDef<D extends Record<string, unknown> = any, R = unknown> {
  kind: ReportKind;
  permission: string;
  /** Checks the filter (ranges, three-month rule) and builds the listing over `scope`. */
  listing(scope: string[], f: ReportFilter, lang: Language): Listing;
  /** Days the export spans (decides file vs queue). */
  span(f: ReportFilter, lang: Language): number;
  row(d: D): R;
  columns(lang: Language): ExportColumn<D>[];
  title(lang: Language): string;
}

const brands = (s?: string) => (s ? s.split(',').filter(Boolean) : undefined);
const text = <D>(key: keyof typeof L, lang: Language, value: (r: D) => string | null | undefined, width = 14): ExportColumn<D> => ({
  key,
  label: L[key][lang],
  type: 'text',
  width,
  value,
});
const amount = <D>(key: keyof typeof L, lang: Language, value: (r: D) => string): ExportColumn<D> => ({
  key,
  label: L[key][lang],
  type: 'money',
  width: 16,
  value,
});
const day = <D>(key: keyof typeof L, lang: Language, value: (r: D) => string | null | undefined): ExportColumn<D> => ({
  key,
  label: L[key][lang],
  type: 'date',
  width: 12,
  value,
});

const settlementHead = (lang: Language): ExportColumn<SettlementDbRow>[] => [
  day('txnSetDate', lang, (r) => r.txn_set_date),
  text('clientid', lang, (r) => r.mer_id, 17),
  text('merName', lang, (r) => r.mer_name, 24),
  text('acquirer', lang, (r) => r.acquirer, 10),
  text('business', lang, (r) => r.bus_line, 10),
  text('merTxnSet', lang, (r) => r.set_cur.trim(), 9),
];
const sm = (v: number, r: { set_cur: string }) => money(v, r.set_cur);

const billDef: ReportDef<SettlementDbRow> = {
  kind: 'bill',
  permission: Perm.reportBill,
  listing: (scope, f, lang) => settlementListing(scope, settlementRange(f, lang)),
  span: (f, lang) => spanDays(settlementRange(f, lang)),
  row: toBillRow,
  columns: (lang) => [
    ...settlementHead(lang),
    amount('reconSetAmount', lang, (r) => sm(r.recon_set_amount, r)),
    amount('historyPendingAmount', lang, (r) => sm(r.history_pending, r)),
    amount('totalPendingAmount', lang, (r) => sm(r.total_pending, r)),
    amount('transAmount', lang, (r) => sm(r.trans_amount, r)),
  ],
  title: (lang) => REPORT_FILE_TITLES.bill[lang],
};

export const transferDef: ReportDef<SettlementDbRow> = {
  kind: 'transfer',
  permission: Perm.reportTransfer,
  listing: (scope, f, lang) => settlementListing(scope, settlementRange(f, lang), readRange(f, 'remit', lang)),
  span: (f, lang) => spanDays(settlementRange(f, lang)),
  row: toTransferRow,
  columns: (lang) => [
    ...settlementHead(lang),
    amount('totalSettlement', lang, (r) => sm(r.recon_set_amount, r)),
    amount('servAmount', lang, (r) => sm(r.serv_amount, r)),
    amount('releasedAmount', lang, (r) => sm(r.released_amount, r)),
    amount('beforeFee', lang, (r) => sm(r.real_trans_before_fee, r)),
    amount('tranFee', lang, (r) => sm(r.tran_fee, r)),
    amount('realTransAmount', lang, (r) => sm(r.real_trans_amount, r)),
    amount('tranThreshold', lang, (r) => sm(r.tran_threshold, r)),
    text('transPeriod', lang, (r) => periodLabel(r.trans_period, lang), 18),
    day('remitDate', lang, (r) => r.remit_date),
    day('reconSearchDate', lang, (r) => r.recon_search_date),
  ],
  title: (lang) => REPORT_FILE_TITLES.transfer[lang],
};

function summaryDef(byBrand: boolean): ReportDef<SummaryDbRow> {
  return {
    kind: byBrand ? 'summary' : 'summaryOld',
    permission: Perm.reportTxn,
    listing: (scope, f, lang) => summaryListing(scope, { settlement: settlementRange(f, lang), type: f.gwTranType, brands: brands(f.paymentBrand) }, byBrand),
    span: (f, lang) => spanDays(settlementRange(f, lang)),
    row: toSummaryRow,
    columns: (lang) => [
      day('txnDate', lang, (r) => r.txn_set_date),
      text('clientid', lang, (r) => r.mer_id, 17),
      text('merName', lang, (r) => r.mer_name, 24),
      text('acquirer', lang, (r) => r.acquirer, 10),
      ...(byBrand ? [text<SummaryDbRow>('paymentBrand', lang, (r) => (r.payment_brand ? brandName(r.payment_brand) : ''), 18)] : []),
      text('txnType', lang, (r) => r.txn_type, 18),
      { key: 'txnCount', label: L.txnCount[lang], type: 'number', width: 8, value: (r) => r.txn_count },
      text('merTxnCur', lang, (r) => r.txn_cur.trim(), 8),
      amount('merTxnAmount', lang, (r) => money(r.txn_amount, r.txn_cur)),
      amount('merMDRAmount', lang, (r) => money(r.mdr_amount, r.set_cur)),
      text('merTxnSet', lang, (r) => r.set_cur.trim(), 9),
      amount('txnSetAmount', lang, (r) => money(r.settle_amount, r.set_cur)),
      amount('txnFee', lang, (r) => money(r.fee, r.set_cur)),
    ],
    title: (lang) => (byBrand ? REPORT_FILE_TITLES.summary : REPORT_FILE_TITLES.summaryOld)[lang],
  };
}
const summaryNewDef = summaryDef(true);
const summaryOldDef = summaryDef(false);

const reserveDef: ReportDef<ReserveDbRow> = {
  kind: 'reserve',
  permission: Perm.reportReserve,
  listing: (scope, f, lang) => reserveListing(scope, reserveRanges(f, lang)),
  span: (f, lang) => {
    const r = reserveRanges(f, lang);
    return Math.min(...[r.settlement, r.release, r.remit, r.transfer].filter((x) => x !== undefined).map(spanDays));
  },
  row: toReserveRow,
  columns: (lang) => [
    day('txnSetDate', lang, (r) => r.txn_set_date),
    text('clientid', lang, (r) => r.mer_id, 17),
    text('merName', lang, (r) => r.mer_name, 24),
    text('business', lang, (r) => r.bus_line, 10),
    text('merTxnSet', lang, (r) => r.set_cur.trim(), 9),
    amount('releaseAmount', lang, (r) => money(r.amount, r.set_cur)),
    day('releaseDate', lang, (r) => r.release_date),
    day('transferDate', lang, (r) => r.transfer_date),
    text('released', lang, (r) => (r.released ? L.yes[lang] : L.no[lang]), 10),
  ],
  title: (lang) => REPORT_FILE_TITLES.reserve[lang],
};

export const REPORTS: Record<ReportKind, ReportDef> = {
  bill: billDef,
  transfer: transferDef,
  summary: summaryNewDef,
  summaryOld: summaryOldDef,
  reserve: reserveDef,
};
