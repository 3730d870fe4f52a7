import type { Page } from '../api';
import type { ExportFile, ExportStatus } from '../files';
import type { SettleBatchRow } from '../merchant';
import { Perm } from '../permissions';
import type { BillRow, ReserveRow, SummaryRow, TransferRow } from '../report';
import type { Timeline } from '../trail';
import type { BlendResult, LogisticsRow, RefundResult, RowError, SettleRow, Takings, TxnDetail, TxnPage, TxnRow, TxnTotals } from '../txn';
import { download, get, post, type Multipart } from './endpoint';
import type { WireQuery } from './wire';

/** An export queued by the server (Files, spec §3): its file's id and state. */
export type ExportQueued = { id: number; status: ExportStatus };
export interface SettleQuery {
  beginDate: string;
  endDate: string;
  busLine: string;
  setCur: string;
  clientid: string;
}
export interface SettlePage extends Page<SettleRow> {
  sum: { currency: string; count: number; settleAmount: string; fee: string; net: string };
}
export interface SettleBatchParams {
  page: number;
  size: number;
  beginDate: string;
  endDate: string;
  merId?: string;
  busLine?: string;
  setCur?: string;
}
export type LogisticsQuery = { page: number; size: number; merId?: string; orderNum?: string; shipmentNo?: string; beginDate?: string; endDate?: string };
type Format = { format?: 'xlsx' | 'csv' };

/** Transactions, settlement and logistics (spec §3 "Transactions"). */
export const TxnApi = {
  list: get<WireQuery, TxnPage>('/api/txn/list', Perm.txnList),
  totals: get<WireQuery, TxnTotals>('/api/txn/totals', Perm.txnList),
  takings: get<{ beginDate: string; endDate: string }, Takings>('/api/txn/takings', Perm.txnList),
  queryResult: get<{ id: number }, TxnRow>('/api/txn/queryResult', Perm.txnQueryResult),
  export: download<WireQuery & Format>('/api/txn/export', Perm.txnExport),
  exportBack: get<WireQuery & Format, ExportQueued>('/api/txn/exportBack', Perm.txnExport),
  refund: post<{ id: string; amount: string; txnschema: string; requestKey: string }, RefundResult>('/api/txn/refund', Perm.txnRefund),
  detail: get<{ id: string }, TxnDetail>('/api/txn/:id', Perm.txnDetail),
  settleList: get<SettleQuery & { page: number; size: number }, SettlePage>('/api/txn/settleList', Perm.settleList),
  settleExport: download<SettleQuery & Format>('/api/txn/settleExport', Perm.settleList),
  settleExportBack: get<SettleQuery & Format, ExportQueued>('/api/txn/settleExportBack', Perm.settleList),
  logisticsList: get<LogisticsQuery, Page<LogisticsRow>>('/api/txn/settleLogisticsList', Perm.logisticsList),
  logisticsTemplate: download<{ format: 'xlsx' | 'csv' }>('/api/txn/logisticsTemplate', Perm.logisticsImport),
  uploadLogistics: post<Multipart, { imported: number; errors: RowError[] }>('/api/txn/uploadLogisticsInfo', Perm.logisticsImport, 'multipart'),
  manualBlend: post<Multipart, BlendResult>('/api/txn/manualBlend', Perm.manualBlend, 'multipart'),
  settleDetail: get<SettleBatchParams, Page<SettleBatchRow>>('/api/txn/settleDetail', Perm.settleDetail),
  settleStatement: download<{ date: string; merId: string; busLine: string; setCur: string; format: 'pdf' | 'csv' }>('/api/txn/settleStatement', Perm.settleDetail),
} as const;

/** GET /trail/transfer/:id/proof (issue 49 §1): the transfer's lines, which sum to the amount sent. */
export interface ProofLine {
  key: string;
  source: string;
  part: string;
  label: string;
  sign: 1 | -1 | 0;
  count: number;
  amount: string;
  txnCurrency?: string;
  txnAmount?: string;
  rateMin?: string;
  rateMax?: string;
}
export interface Proof {
  transfer: {
    id: string;
    merId: string;
    merName: string;
    busLine: string;
    currency: string;
    settleFrom: string;
    settleTo: string;
    remitDate: string | null;
    reconSetAmount: string;
    servAmount: string;
    releasedAmount: string;
    beforeFee: string;
    tranFee: string;
    amount: string;
  };
  lines: ProofLine[];
  total: string;
  balanced: boolean;
}
export interface ProofRow {
  kind: 'txn' | 'reserve' | 'settlement';
  txnId: string | null;
  ref: string;
  day: string;
  txnDate: string | null;
  txnTime: string | null;
  brand: string | null;
  type: string | null;
  txnCurrency: string | null;
  txnAmount: string | null;
  rate: string | null;
  amount: string;
  late: boolean;
}
export interface ProofRows {
  line: { key: string; label: string; amount: string };
  content: ProofRow[];
  totalElements: number;
  sum: string;
}
/** GET /trail/order/search (issue 49 §3). */
export interface OrderHit {
  merId: string;
  orderNo: string;
  at: string | null;
  currency: string | null;
  amount: string | null;
  buyerEmail: string | null;
}

/** The money trail (issue 49): a transfer's proof, an order's timeline. */
export const TrailApi = {
  proof: get<{ id: string }, Proof>('/api/trail/transfer/:id/proof', Perm.reportTransfer),
  proofRows: get<{ id: string; line: string; page: number; size: number }, ProofRows>('/api/trail/transfer/:id/proof/rows', Perm.reportTransfer),
  proofExport: download<{ id: string; format: 'csv' | 'pdf'; timeZone: string }>('/api/trail/transfer/:id/proof/export', Perm.reportTransfer),
  orderSearch: get<Record<string, string>, { content: OrderHit[] }>('/api/trail/order/search', Perm.txnDetail),
  orderTimeline: get<{ merId: string; no: string }, Timeline>('/api/trail/order/timeline', Perm.txnDetail),
} as const;

/** The report lists and their exports (spec §3 "Reports"): a short range answers a file, a long one queues it. */
export const ReportApi = {
  billList: get<WireQuery, Page<BillRow>>('/api/report/bill/list', Perm.reportBill),
  billExport: download<WireQuery>('/api/report/bill/export', Perm.reportBill),
  transferList: get<WireQuery, Page<TransferRow>>('/api/report/transfer/list', Perm.reportTransfer),
  transferExport: download<WireQuery>('/api/report/transfer/export', Perm.reportTransfer),
  txnNewList: get<WireQuery, Page<SummaryRow>>('/api/report/txn/newList', Perm.reportTxn),
  txnNewExport: download<WireQuery>('/api/report/txn/newExport', Perm.reportTxn),
  txnList: get<WireQuery, Page<SummaryRow>>('/api/report/txn/list', Perm.reportTxn),
  txnExport: download<WireQuery>('/api/report/txn/export', Perm.reportTxn),
  reserveList: get<WireQuery, Page<ReserveRow>>('/api/report/reserve/list', Perm.reportReserve),
  reserveExport: download<WireQuery>('/api/report/reserve/export', Perm.reportReserve),
} as const;

/** Files: the exports the user queued (spec §3 "Files"). */
export const FilesApi = {
  list: get<{ page: number; size: number }, Page<ExportFile>>('/api/report/file/list', Perm.reportFile),
  download: download<{ id: number }>('/api/report/file/download/:id', Perm.reportFile),
  delete: post<{ id: number }, null>('/api/report/file/delete', Perm.reportFile),
} as const;
