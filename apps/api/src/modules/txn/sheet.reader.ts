import ExcelJS from 'exceljs';

/** Largest upload accepted (spec §9: 5 MiB) and most rows read from it. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_MAX_ROWS = 20_000;

/** Parses CSV text (RFC 4180: quotes, doubled quotes, CRLF or LF) into rows of strings. */
export function parseCsv(text: string): string[][] {
  const s = text.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quoted) {
      if (ch === '"') {
        if (s[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && s[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
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
