import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ReportApi, type Endpoint, type ExportStatus, type Page, type WireQuery } from '@portal/contract';
import { http, RequestError, saveFile } from '../../../lib/http';
import { apiQuery } from '../../../lib/api-query';

/** The report query as sent (spec §3): dates 'YYYY-MM-DD', paymentBrand comma-joined, page 0-based. */
export type ReportWireQuery = Record<string, string | number | undefined>;

/** Query options of one report list call, its key from the descriptor (['report', 'bill', 'list', q]): ['report'] is the area's prefix. */
export const reportListQuery = <R>(list: Endpoint<WireQuery, Page<R>>, q: ReportWireQuery) => queryOptions({ ...apiQuery(list, q), placeholderData: keepPreviousData });

export type ExportOutcome = { kind: 'file'; filename: string } | { kind: 'queued'; id: number; status: ExportStatus; msg: string };

/**
 * A report export: a short range answers a file (saved under its Content-Disposition name); a long
 * one is queued by the server, which answers the envelope {id, status} instead.
 */
export async function exportReport(path: ReportExportPath, q: ReportWireQuery): Promise<ExportOutcome> {
  try {
    const file = await http.call(REPORT_EXPORTS[path], q);
    saveFile(file);
    return { kind: 'file', filename: file.filename };
  } catch (e) {
    if (e instanceof RequestError && e.code === 0 && e.data && typeof e.data === 'object' && 'id' in e.data) {
      const d = e.data as { id: number; status: ExportStatus };
      return { kind: 'queued', id: d.id, status: d.status, msg: e.message };
    }
    throw e;
  }
}

/** The report screens' exports, by the path the screen names (also the key of its schedule kind). */
const REPORT_EXPORTS = {
  'bill/export': ReportApi.billExport,
  'transfer/export': ReportApi.transferExport,
  'txn/newExport': ReportApi.txnNewExport,
  'txn/export': ReportApi.txnExport,
  'reserve/export': ReportApi.reserveExport,
} as const;
export type ReportExportPath = keyof typeof REPORT_EXPORTS;
