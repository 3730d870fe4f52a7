import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { XlsxStream } from './xlsx.stream';
import { formatInZone, offsetLabel, type Zone } from '../../lib/zone';
import type { ExportColumn, ExportFormat } from './export.types';

/**
 * A CSV text cell that a spreadsheet would read as a formula (= + - @, or a leading tab / CR) gets
 * a leading apostrophe (OWASP CSV injection). Numbers are written as numbers and need nothing. XLSX
 * needs none either: its text cells are typed strings (inline strings), never formulas, and the
 * apostrophe would show as text (issue 10, finding 6).
 */
export function neutralise(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

type Cell = string | number | null;
export interface OutColumn {
  label: string;
  kind: 'text' | 'number' | 'money';
  width: number;
  get: (row: unknown) => Cell;
}

/** Expands the source's columns: a time column becomes two (the export's zone, then UTC). */
export function outColumns<R>(cols: ExportColumn<R>[], zone: Zone): OutColumn[] {
  const out: OutColumn[] = [];
  const zl = offsetLabel(zone);
  for (const c of cols) {
    const w = c.width ?? 16;
    switch (c.type) {
      case 'time': {
        const v = c.value as (r: unknown) => Date | number | null | undefined;
        out.push({
          label: `${c.label} (${zl})`,
          kind: 'text',
          width: 21,
          get: (r) => {
            const d = v(r);
            return d === null || d === undefined ? null : formatInZone(d, zone);
          },
        });
        out.push({
          label: `${c.label} (UTC)`,
          kind: 'text',
          width: 21,
          get: (r) => {
            const d = v(r);
            return d === null || d === undefined ? null : formatInZone(d, 0);
          },
        });
        break;
      }
      case 'number':
        out.push({ label: c.label, kind: 'number', width: w, get: (r) => (c.value as (r: unknown) => number | null | undefined)(r) ?? null });
        break;
      case 'money':
        out.push({ label: c.label, kind: 'money', width: w, get: (r) => (c.value as (r: unknown) => string | null | undefined)(r) ?? null });
        break;
      default: {
        const v = c.value as (r: unknown) => string | null | undefined;
        out.push({
          label: c.label,
          kind: 'text',
          width: w,
          get: (r) => {
            const s = v(r);
            return s == null || s === '' ? null : String(s);
          },
        });
      }
    }
  }
  return out;
}

const csvField = (v: Cell): string => {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

export interface SheetWriter {
  rows(batch: unknown[]): Promise<void>;
  end(): Promise<void>;
}

async function write(out: Writable, chunk: string | Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

/** The start of a CSV file: the UTF-8 BOM and the label line. */
export const csvHead = (cols: OutColumn[]): string => '\uFEFF' + cols.map((c) => csvField(c.label)).join(',') + '\r\n';

/** CSV: UTF-8 with BOM (Excel reads the labels right), CRLF, RFC 4180 quoting. */
function csvWriter(out: Writable, cols: OutColumn[]): SheetWriter {
  let started = false;
  return {
    async rows(batch) {
      let s = started ? '' : csvHead(cols);
      started = true;
      for (const r of batch) {
        for (let i = 0; i < cols.length; i++) {
          const v = cols[i].get(r);
          s += (i ? ',' : '') + csvField(cols[i].kind === 'text' && typeof v === 'string' ? neutralise(v) : v);
        }
        s += '\r\n';
        if (s.length > 1 << 16) {
          await write(out, s);
          s = '';
        }
      }
      if (s) await write(out, s);
    },
    async end() {
      if (!started) await write(out, csvHead(cols));
      out.end();
      await once(out, 'finish').catch(() => undefined);
    },
  };
}

/** XLSX through the streaming writer: rows become sheet XML and are deflated straight out. */
function xlsxWriter(out: Writable, cols: OutColumn[], sheetName: string): SheetWriter {
  const x = new XlsxStream(
    out,
    cols.map((c) => ({ label: c.label, width: c.width, kind: c.kind === 'text' ? 'text' : 'number' })),
    sheetName,
  );
  return {
    rows: (batch) =>
      x.rows(batch, (r, cells) => {
        for (let i = 0; i < cols.length; i++) cells[i] = cols[i].get(r);
      }),
    end: () => x.end(),
  };
}

function sheetWriter(format: ExportFormat, out: Writable, cols: OutColumn[], sheetName: string): SheetWriter {
  return format === 'csv' ? csvWriter(out, cols) : xlsxWriter(out, cols, sheetName);
}

/** Writes every batch of `rows` to `out`; returns the row count. */
export async function writeExport<R>(
  format: ExportFormat,
  out: Writable,
  columns: ExportColumn<R>[],
  zone: Zone,
  sheetName: string,
  rows: AsyncIterable<R[]>,
  onProgress?: (n: number) => Promise<void> | void,
): Promise<number> {
  const w = sheetWriter(format, out, outColumns(columns, zone), sheetName);
  let n = 0;
  for await (const batch of rows) {
    await w.rows(batch);
    n += batch.length;
    if (onProgress) await onProgress(n);
  }
  await w.end();
  return n;
}
