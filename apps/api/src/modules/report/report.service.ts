import { EXPORT_SYNC_MAX_DAYS, EXPORT_SYNC_MAX_ROWS, reportFilterSchema, type Language, type ReportExportQuery, type ReportFilter, type ReportQuery } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import type { ExportSource } from '../export';
import { registerExportSource } from '../export';
import { REPORTS, type ReportDef } from './report.defs';
import { countRows, iterateRows, listPage } from './report.query';
import { invalidInput } from '../../lib/validation';

/** One page of a report over the caller's merchants (`scope` empty: another merchant asked → empty). */
export async function listReport<R>(deps: Deps, def: ReportDef<any, R>, scope: string[], q: ReportQuery, lang: Language) {
  const listing = def.listing(scope, q, lang);
  if (!scope.length) return { content: [] as R[], totalElements: 0 };
  const [rows, total] = await Promise.all([listPage<Record<string, unknown>>(deps.db.read, listing, q.page, q.size), countRows(deps.db.read, listing)]);
  return { content: rows.map((r) => def.row(r)), totalElements: total };
}

/**
 * How an export is delivered: a file in the response for a short range, or queued (durable job,
 * the file lands in /report/file) for a range over EXPORT_SYNC_MAX_DAYS days, over
 * EXPORT_SYNC_MAX_ROWS rows, or when the caller asks (mode=queue).
 */
export async function exportMode(deps: Deps, def: ReportDef, scope: string[], q: ReportExportQuery, lang: Language): Promise<'file' | 'queue'> {
  const listing = def.listing(scope, q, lang);
  if (q.mode === 'queue' || def.span(q, lang) > EXPORT_SYNC_MAX_DAYS) return 'queue';
  if (!scope.length) return 'file';
  return (await countRows(deps.db.read, listing)) > EXPORT_SYNC_MAX_ROWS ? 'queue' : 'file';
}

/** The export row source of a report (kind `report.<kind>`): keyset batches over the stored scope. */
function reportExportSource(def: ReportDef): ExportSource<ReportFilter, Record<string, unknown>> {
  return {
    permission: def.permission,
    parse: (params) => {
      const p = reportFilterSchema.safeParse(params);
      if (!p.success) throw invalidInput(p.error);
      def.listing([], p.data, 'en');
      return p.data;
    },
    fileName: (ctx) => def.title(ctx.lang),
    columns: (ctx) => def.columns(ctx.lang),
    rows: (ctx, f) => iterateRows(ctx.read, def.listing(ctx.scope, f, ctx.lang)),
    count: (ctx, f) => countRows(ctx.read, def.listing(ctx.scope, f, ctx.lang)),
  };
}

export const exportKind = (def: ReportDef) => `report.${def.kind}`;

let registered = false;
/** Plugs the report row sources into the export queue (once per process). */
export function registerReportExports(): void {
  if (registered) return;
  registered = true;
  for (const def of Object.values(REPORTS)) registerExportSource(exportKind(def), reportExportSource(def));
}
