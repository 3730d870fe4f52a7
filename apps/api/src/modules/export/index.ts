/**
 * The export module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { exportRoutes } from './export.routes';
import { startExportWorker } from './export.service';

/** Export files of lists and reports: the queue, its worker, the download. */
export const manifest = defineModule({ name: 'export', routes: exportRoutes, workers: [(deps, log) => startExportWorker(deps, log)] });

// What other modules use of it (issue 45 §2: through this door only).
export { ExportAudit, auditExport } from './export.audit';
export { csvCopy, textCellLiteral, textCellSql } from './export.copy';
export type { ColumnSql } from './export.copy';
export { insertExport, toExportFile } from './export.repo';
export type { ExportFileRow } from './export.repo';
export { keyExportFile } from './export.keys';
export { contentTypeOf, contextOf, disposition, enqueueExport, exportDir, exportSource, registerExportSource, stamp, streamExport, writeExportRow } from './export.service';
export type { ExportColumn, ExportContext, ExportSource } from './export.types';
export { neutralise, writeExport } from './export.writer';
