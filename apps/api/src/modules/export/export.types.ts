import type { Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import type { Zone } from '../txn/time';

export type ExportFormat = 'xlsx' | 'csv';

/** Everything a row source knows about the export it serves. */
export interface ExportContext {
  deps: Deps;
  lang: Language;
  /** The zone time columns are shown in (the user's), beside an added UTC column. */
  zone: Zone;
  /** Merchant ids the requesting session could read: sources must filter by them. */
  scope: string[];
  userId: number;
}

/**
 * One column. `time` columns take a Date and are written twice: in the export's zone (the label
 * states it) and in UTC. `money` takes a decimal string (exact, written as a number in XLSX).
 */
export type ExportColumn<R> =
  | { key: string; label: string; type: 'text'; value: (row: R) => string | null | undefined; width?: number }
  | { key: string; label: string; type: 'number'; value: (row: R) => number | null | undefined; width?: number }
  | { key: string; label: string; type: 'money'; value: (row: R) => string | null | undefined; width?: number }
  | { key: string; label: string; type: 'date'; value: (row: R) => string | null | undefined; width?: number }
  | { key: string; label: string; type: 'time'; value: (row: R) => Date | number | null | undefined; width?: number };

/** A pluggable row source: the transactions list, the settle list, reports, pay-by-link … */
export interface ExportSource<P = unknown, R = unknown> {
  /** Permission(s) needed to queue this export (one of them). */
  permission: string | string[];
  /** Checks and normalises the stored params (throws on bad input). */
  parse(params: unknown): P;
  /** File name without extension, in the user's language. */
  fileName(ctx: ExportContext, params: P): string;
  columns(ctx: ExportContext, params: P): ExportColumn<R>[];
  /** The rows in batches (keyset pages): memory stays constant whatever the count. */
  rows(ctx: ExportContext, params: P): AsyncIterable<R[]>;
  /** Row count for progress (optional). */
  count?(ctx: ExportContext, params: P): Promise<number>;
  /**
   * Optional, PostgreSQL CSV only: one SELECT (no bind parameters: values inlined as literals)
   * whose output columns are already the final CSV cells of `columns` — in the order and count of
   * `outColumns(columns, zone)`, empty cells as NULL — and whose rows come in the order `rows`
   * yields them. The export is then written by `COPY (sql) TO STDOUT` (export.copy.ts), byte for
   * byte what the JS writer writes. Null: take the JS path (e.g. a zone the SQL cannot express).
   * `csvSelect` builds it from the columns and an SQL expression per column key.
   */
  copyCsv?(ctx: ExportContext, params: P): { sql: string } | null;
}
