import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ExportStatus, Page } from '@portal/contract';
import { http, RequestError, saveFile } from '../../../lib/http';

/** The report query as sent (spec §3): dates 'YYYY-MM-DD', paymentBrand comma-joined, page 0-based. */
export type ReportWireQuery = Record<string, string | number | undefined>;

/** Query options of one report list call, kept per path and query. */
export const reportListQuery = <R>(path: string, q: ReportWireQuery) =>
  queryOptions({
    queryKey: ['report', path, q],
    queryFn: ({ signal }) => http.get<Page<R>>(`/report/${path}`, q, { signal }),
    placeholderData: keepPreviousData,
  });

export type ExportOutcome = { kind: 'file'; filename: string } | { kind: 'queued'; id: number; status: ExportStatus; msg: string };

/**
 * A report export: a short range answers a file (saved under its Content-Disposition name); a long
 * one is queued by the server, which answers the envelope {id, status} instead.
 */
export async function exportReport(path: string, q: ReportWireQuery): Promise<ExportOutcome> {
  try {
    const file = await http.file(`/report/${path}`, q);
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
