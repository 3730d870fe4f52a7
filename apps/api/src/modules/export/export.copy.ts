/**
 * The CSV export through COPY: the database formats every cell and writes the CSV; Node only adds
 * the BOM and label line, turns the record terminators into CRLF and streams the bytes on. Same
 * bytes as the JS writer (export.writer.ts), several times faster: the driver's per-row cost (a JS
 * object per row) is gone. PostgreSQL: one `COPY (SELECT …) TO STDOUT`, streamed. PGlite (whose
 * COPY writes one blob in memory): one `COPY … TO '/dev/blob'` per key range of `COPY_CHUNK_ROWS`.
 */
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/db';

/** What the COPY writers read through: a Db, or its read handle (`Db.read`, the replica). */
type CopySource = Pick<Db, 'query' | 'copyOut' | 'copyBlob'>;
import { sqlLiteral } from '../../db/sql-inline';
import type { Zone } from '../../lib/zone';
import type { CopyCsv, CopyKeyset, ExportColumn } from './export.types';
import { neutralise } from './export.writer';
import { CsvLfToCrlf } from './csv-crlf';

/**
 * The SQL of one column (by key) for `csvSelect`: an expression of the column's raw value, given
 * the formatting of its type — text and date: a text (NULL, '' → empty cell; formula starts
 * neutralised); time: a timestamptz (two cells: the zone's and UTC); money: the final decimal text
 * — or `{ cell }`, an expression that already is the final cell (text or NULL; number columns
 * take only this form).
 */
export type ColumnSql = string | { cell: string };

/**
 * Code points `neutralise` prefixes: = + - @ tab CR. A function declaration, not a constant: other
 * modules build SQL with `textCellSql` while their files load, and a circle of imports between
 * modules' doors may load them before this file has run (issue 45).
 */
function formulaStarts(): string {
  return [...'=+-@\t\r'].map((c) => c.charCodeAt(0)).join(', ');
}

/**
 * SQL of a text cell as `outColumns` writes it: NULL for NULL or '', `neutralise`d otherwise.
 * `ascii()` is the first character's code point (0 for ''): cheaper than a regular expression, and
 * a text starting at 'A' or above (letters, anything not ASCII) is taken as it is at once.
 */
export function textCellSql(x: string): string {
  return `CASE WHEN ascii(${x}) > 64 THEN ${x} WHEN ascii(${x}) IN (${formulaStarts()}) THEN '''' || ${x} ELSE NULLIF(${x}, '') END`;
}

/** A constant text cell (a label) as an SQL literal: NULL when empty, neutralised. */
export function textCellLiteral(s: string | null | undefined): string {
  return s == null || s === '' ? 'NULL' : sqlLiteral(neutralise(s));
}

/**
 * 'YYYY-MM-DD HH:mm:ss' of timestamptz `x` at `minutes` east of UTC, as `formatInZone` (seconds
 * truncated, also before 1970). `AT TIME ZONE INTERVAL` is a fixed offset (east positive) and needs
 * no zone lookup; the text of a timestamp without fraction is that form under DateStyle ISO, which
 * the `pg` driver needs anyway (it parses dates in that style). Cheaper than to_char.
 */
function timeCellSql(x: string, minutes: number): string {
  if (!Number.isSafeInteger(minutes)) throw new TypeError(`not a whole number of minutes: ${minutes}`);
  return `date_trunc('second', (${x}) AT TIME ZONE INTERVAL '${minutes} minutes')::text`;
}

/**
 * The SELECT list of `columns` as final CSV cells, in the order and count of `outColumns(columns,
 * zone)`, followed by `from` (FROM … WHERE … ORDER BY …). `sql` gives each column's expression by
 * key (every column needs one). Null when `zone` is not a fixed offset (the SQL writes fixed
 * offsets only; an IANA zone takes the JS path).
 */
function csvSelect<R>(columns: ExportColumn<R>[], zone: Zone, sql: Record<string, ColumnSql>, from: string): string | null {
  if (typeof zone !== 'number' || !Number.isFinite(zone)) return null;
  const minutes = Math.round(zone * 60); // as formatInZone
  const cells: string[] = [];
  for (const c of columns) {
    if (!Object.hasOwn(sql, c.key)) throw new Error(`csvSelect: no SQL for the column ${c.key}`);
    const s = sql[c.key];
    const done = typeof s === 'object';
    const x = done ? s.cell : s;
    switch (c.type) {
      case 'time':
        if (done) throw new Error(`csvSelect: the time column ${c.key} takes a timestamptz, not a cell`);
        cells.push(timeCellSql(x, minutes), timeCellSql(x, 0));
        break;
      case 'money':
        cells.push(x);
        break;
      case 'number':
        // JS writes String(n): only the source knows which SQL prints that.
        if (!done) throw new Error(`csvSelect: the number column ${c.key} needs its final cell`);
        cells.push(x);
        break;
      default:
        cells.push(done ? x : textCellSql(x));
    }
  }
  return `SELECT ${cells.join(',\n       ')}\n${from}`;
}

const orderBy = (k: Pick<CopyKeyset, 'keys' | 'direction'>) => k.keys.map((c) => `${c.sql} ${k.direction.toUpperCase()}`).join(', ');

/**
 * `copyCsv`'s answer from `csvSelect`'s inputs, the filter and the order: the whole statement
 * (`SELECT … FROM q.from WHERE q.where ORDER BY q.keys`) and its keyset (see `CopyKeyset`; the keys
 * must be NOT NULL and, together, unique). Null when `csvSelect` is.
 */
export function csvCopy<R>(
  columns: ExportColumn<R>[],
  zone: Zone,
  sql: Record<string, ColumnSql>,
  q: { from: string; where: string; keys: CopyKeyset['keys']; direction: CopyKeyset['direction']; keyFrom?: string },
): CopyCsv | null {
  const select = csvSelect(columns, zone, sql, q.from);
  if (!select) return null;
  const keyset: CopyKeyset = { select, where: q.where, from: q.keyFrom ?? q.from, keys: q.keys, direction: q.direction };
  return { sql: `${select}\nWHERE ${q.where}\nORDER BY ${orderBy(keyset)}`, keyset };
}

/**
 * Writes `head` (BOM and labels) and then the output of `COPY (select) TO STDOUT` as CSV with CRLF
 * records into `out`, with backpressure all the way (memory stays constant), and ends `out`.
 * `onProgress` gets the row count as data flows. If `out` is destroyed before the end (the client
 * went away), the COPY stream is destroyed with it and its connection closed. Returns the row count.
 */
export async function writeCopyCsv(db: CopySource, select: string, out: Writable, head: string, onProgress?: (rows: number) => Promise<void> | void): Promise<number> {
  if (!db.copyOut) throw new Error('COPY is not available on this database');
  let src;
  try {
    src = await db.copyOut(`COPY (${select}) TO STDOUT WITH (FORMAT csv)`);
  } catch (err) {
    out.destroy(err as Error);
    throw err;
  }
  const crlf = new CsvLfToCrlf(onProgress);
  out.write(head);
  await pipeline(src, crlf, out);
  return crlf.rows;
}

/**
 * Rows per COPY on PGlite (see writeChunkedCopyCsv): the transactions export sorts a range of
 * 20,000 rows within the default work_mem (4 MB; 50,000 spill to disk), and each COPY holds the
 * process (PGlite runs on its thread) for about 0.15 s.
 */
export const COPY_CHUNK_ROWS = 20_000;

/**
 * The chunks' upper ends, in order: the keys (as text) of every `chunkRows`-th row. One query, a
 * window over the keys alone (no cells, no joins the keys do not need).
 */
async function chunkEnds(db: CopySource, k: CopyKeyset, chunkRows: number): Promise<string[][]> {
  const names = k.keys.map((_, i) => `k${i}`);
  const { rows } = await db.query<Record<string, string>>(
    `SELECT ${names.map((n) => `${n}::text AS ${n}`).join(', ')}
       FROM (SELECT ${k.keys.map((c, i) => `${c.sql} AS ${names[i]}`).join(', ')}, row_number() OVER (ORDER BY ${orderBy(k)}) AS rn
               ${k.from} WHERE ${k.where}) x
      WHERE rn % ${chunkRows} = 0 ORDER BY rn`,
  );
  return rows.map((r) => names.map((n) => r[n]));
}

/**
 * The SELECT of the rows after `prev` up to and including `last` (either null: open), in order.
 * A row comparison over the keys: exact (the keys are unique) and an index range where one exists.
 */
function keyRangeSelect(k: CopyKeyset, prev: string[] | null, last: string[] | null): string {
  const tuple = `(${k.keys.map((c) => c.sql).join(', ')})`;
  const lit = (v: string[]) => `(${v.map((x, i) => `${sqlLiteral(x)}::${k.keys[i].type}`).join(', ')})`;
  const [after, upTo] = k.direction === 'desc' ? ['<', '>='] : ['>', '<='];
  const where = [`(${k.where})`];
  if (prev) where.push(`${tuple} ${after} ${lit(prev)}`);
  if (last) where.push(`${tuple} ${upTo} ${lit(last)}`);
  return `${k.select}\nWHERE ${where.join('\n  AND ')}\nORDER BY ${orderBy(k)}`;
}

/** Bytes handed downstream at a time: the next COPY runs only once a chunk is all taken. */
const SLICE = 1 << 16;

/**
 * PGlite: writes `head` and then the rows of `k` as CSV with CRLF records into `out`, and ends
 * `out`. COPY on PGlite writes its whole output into one blob, so the rows go in key ranges of
 * `chunkRows` (the ends from one window query, `chunkEnds`), one `COPY (range) TO '/dev/blob'`
 * each, its bytes pushed on in slices with backpressure: memory holds about one chunk. The keys
 * are unique, so no row is lost or repeated at a chunk edge; rows added meanwhile before the first
 * end or inside a range already written are not in the file (as with the keyset walk of the JS
 * path). If `out` is destroyed (the client went away), no further chunk is read. Returns the row
 * count; `onProgress` gets it as data flows.
 */
export async function writeChunkedCopyCsv(
  db: CopySource,
  k: CopyKeyset,
  out: Writable,
  head: string,
  onProgress?: (rows: number) => Promise<void> | void,
  chunkRows = COPY_CHUNK_ROWS,
): Promise<number> {
  if (!db.copyBlob) throw new Error('COPY to a blob is not available on this database');
  if (!Number.isSafeInteger(chunkRows) || chunkRows < 1) throw new RangeError(`chunkRows: ${chunkRows}`);
  if (!k.keys.length) throw new Error('a keyset needs at least one key');
  let ends: string[][];
  try {
    ends = await chunkEnds(db, k, chunkRows);
  } catch (err) {
    out.destroy(err as Error);
    throw err;
  }
  const copyBlob = db.copyBlob.bind(db);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    let prev: string[] | null = null;
    for (let i = 0; i <= ends.length; i++) {
      const last = ends[i] ?? null; // the last range is open: it ends with the rows
      const bytes = await copyBlob(`COPY (${keyRangeSelect(k, prev, last)}) TO '/dev/blob' WITH (FORMAT csv)`);
      for (let at = 0; at < bytes.length; at += SLICE) yield bytes.subarray(at, at + SLICE);
      prev = last;
    }
  }
  const crlf = new CsvLfToCrlf(onProgress);
  out.write(head);
  await pipeline(Readable.from(chunks(), { objectMode: false, highWaterMark: SLICE }), crlf, out);
  return crlf.rows;
}
