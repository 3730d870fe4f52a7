import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';

/** Largest upload accepted (spec §9: 5 MiB) and most rows read from it. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_MAX_ROWS = 20_000;

/** A CSV upload the parser could not read: where (1-based line) and why (the parser's words). */
export class CsvUnreadable extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * Parses CSV text (RFC 4180: quotes, doubled quotes, CRLF or LF, a UTF-8 BOM) into rows of strings
 * with csv-parse (issue 13, fix 12). Refuses what is not CSV — an unclosed quote, a quote inside an
 * unquoted field — with the line, instead of guessing.
 */
export function parseCsv(text: string): string[][] {
  try {
    return parse(text, { bom: true, relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] }) as string[][];
  } catch (err) {
    const e = err as { lines?: number; message?: string; code?: string };
    throw new CsvUnreadable(e.lines ?? 1, (e.message ?? 'unreadable').replace(/^Invalid (Opening|Closing) Quotes?: /, '').slice(0, 160));
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('text' in v) return String(v.text);
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    return '';
  }
  return String(v);
}

/** Reads the first sheet of an XLSX or a CSV upload into rows of trimmed strings. */
export async function readSheet(buf: Buffer, fileName: string): Promise<string[][]> {
  const ext = fileName.toLowerCase().split('.').pop();
  let rows: string[][];
  if (ext === 'csv') rows = parseCsv(buf.toString('utf8'));
  else if (ext === 'xlsx') {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    rows = [];
    ws?.eachRow({ includeEmpty: true }, (row, n) => {
      const vals = (row.values as ExcelJS.CellValue[]).slice(1).map(cellText);
      rows[n - 1] = vals;
    });
    for (let i = 0; i < rows.length; i++) rows[i] ??= [];
  } else throw new TypeError('unsupported file type');
  return rows.map((r) => r.map((c) => c.trim()));
}

/** True when the file name has an importable extension. */
export const isSheetFile = (name: string) => /\.(csv|xlsx)$/i.test(name);

/**
 * Maps the header row to keys: a header cell matches a key or any of its labels
 * (case-insensitive). Returns key → column index.
 */
export function headerIndex(header: string[], labels: Record<string, Record<string, string>>): Map<string, number> {
  const out = new Map<string, number>();
  header.forEach((h, i) => {
    const x = h.toLowerCase().replace(/\s+/g, '');
    for (const [key, ls] of Object.entries(labels)) {
      const names = [key, ...Object.values(ls)].map((n) => n.toLowerCase().replace(/\s+/g, ''));
      if (names.includes(x) && !out.has(key)) out.set(key, i);
    }
  });
  return out;
}
