import type { Language } from '@portal/contract';
import type { Reader } from '../../db/db';
import type { Deps } from '../../plugins/context';
import type { Zone } from '../../lib/zone';

export type ExportFormat = 'xlsx' | 'csv';

/** Everything a row source knows about the export it serves. */
export interface ExportContext {
  deps: Deps;
  /**
   * Where the rows are read: `deps.db.read` for a download in the request (routed: the replica,
   * or the primary for a session that just wrote), a caught-up reader for the queued job
   * (`Reader.caughtUp`: it sees every write made before the job started). Never for writes.
   */
  read: Reader;
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
   * Optional, CSV only: one SELECT (no bind parameters: values inlined as literals) whose output
   * columns are already the final CSV cells of `columns` — in the order and count of
   * `outColumns(columns, zone)`, empty cells as NULL — and whose rows come in the order `rows`
   * yields them. The export is then written by COPY (export.copy.ts), byte for byte what the JS
   * writer writes: on PostgreSQL `COPY (sql) TO STDOUT`, streamed; on PGlite (whose COPY writes one
   * blob) only with `keyset`, in key ranges of a few ten thousand rows, one COPY each. Null: take
   * the JS path (e.g. a zone the SQL cannot express). `csvCopy` builds it from the columns, an SQL
   * expression per column key, the FROM, the filter and the order keys.
   */
  copyCsv?(ctx: ExportContext, params: P): CopyCsv | null;
}

/** The COPY form of a CSV export (see `ExportSource.copyCsv`). */
export interface CopyCsv {
  /** `SELECT <cells> FROM … WHERE … ORDER BY …`: the whole export in one statement. */
  sql: string;
  /** The same rows by order key, so that a writer can take them in key ranges (PGlite). */
  keyset?: CopyKeyset;
}

/**
 * `sql` taken apart. The rows are `select` + `WHERE (where)` ordered by `keys`, all in
 * `direction`; the keys are NOT NULL in every selected row and together unique (the last one is
 * the primary key), so that a key range holds each row exactly once and no tie straddles a chunk
 * edge. The writer adds `(keys) < / >= (literals)` conditions to the WHERE.
 */
export interface CopyKeyset {
  /** `SELECT <cells>\nFROM … JOIN …`: everything before the WHERE. */
  select: string;
  /** The filter over `from` (values inlined). */
  where: string;
  /**
   * The FROM of the boundary query (which reads the keys alone): `select`'s FROM, or less of it
   * when the rest only adds columns (a join on a NOT NULL foreign key).
   */
  from: string;
  /** The order: SQL expressions and their types (for the literals of the key ranges). */
  keys: { sql: string; type: string }[];
  direction: 'asc' | 'desc';
}
