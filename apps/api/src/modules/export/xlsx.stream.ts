import { once } from 'node:events';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * A streaming XLSX (SpreadsheetML in a ZIP) writer with constant memory: rows are turned into sheet
 * XML in batches and deflated straight into the output; only the ZIP directory (a few entries) is
 * kept. About ten times faster than a general workbook library, which matters for 1M-row exports.
 * A sheet holds at most 1,048,575 data rows (Excel's limit); more rows continue on a new sheet.
 */
export type XlsxCell = string | number | null;
export interface XlsxColumn {
  label: string;
  width: number;
  /** 'number' cells get the style of their decimals (0–4): grouped, fixed decimals. */
  kind: 'text' | 'number';
}

const MAX_ROWS = 1_048_575;
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

const XML_BAD = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
function esc(s: string): string {
  let out = s;
  if (XML_BAD.test(out)) out = out.replace(XML_BAD, '');
  XML_BAD.lastIndex = 0;
  if (/[&<>]/.test(out)) out = out.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return out;
}
function colName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
const textCell = (ref: string, v: string, style = 0) => {
  const sp = v !== v.trim() ? ' xml:space="preserve"' : '';
  return `<c r="${ref}"${style ? ` s="${style}"` : ''} t="inlineStr"><is><t${sp}>${esc(v)}</t></is></c>`;
};

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<numFmts count="4"><numFmt numFmtId="164" formatCode="#,##0.0"/><numFmt numFmtId="165" formatCode="#,##0.000"/><numFmt numFmtId="166" formatCode="#,##0.0000"/><numFmt numFmtId="167" formatCode="#,##0.00"/></numFmts>
<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>
<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>
<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>
<cellXfs count="7"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="167" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>
</styleSheet>`;
/** Style index of a number with `d` decimals (2 = '#,##0', then 1…4 decimals). */
const NUM_STYLE = [2, 3, 4, 5, 6];

export class XlsxStream {
  private entries: { name: string; crc: number; csize: number; usize: number; offset: number }[] = [];
  private offset = 0;
  private sheets: string[] = [];
  private deflate: zlib.DeflateRaw | null = null;
  private onDrain: (() => void) | null = null;
  private cur = { name: '', crc: 0, csize: 0, usize: 0, offset: 0 };
  private rowNo = 0;
  private refs: string[];

  private maxRows: number;

  constructor(
    private out: Writable,
    private cols: XlsxColumn[],
    private sheetName: string,
    opts: { maxRows?: number } = {},
  ) {
    this.refs = cols.map((_, i) => colName(i));
    this.maxRows = opts.maxRows ?? MAX_ROWS;
  }

  private async raw(b: Buffer) {
    this.offset += b.length;
    if (!this.out.write(b)) await once(this.out, 'drain');
  }

  private localHeader(name: string): Buffer {
    const n = Buffer.from(name, 'utf8');
    // version 20, flags: bit 3 (sizes in the data descriptor) + bit 11 (UTF-8 names), deflate, no time.
    return Buffer.concat([u32(0x04034b50), u16(20), u16(0x0808), u16(8), u16(0), u16(0x21), u32(0), u32(0), u32(0), u16(n.length), u16(0), n]);
  }

  private async startEntry(name: string) {
    this.cur = { name, crc: 0, csize: 0, usize: 0, offset: this.offset };
    await this.raw(this.localHeader(name));
    const d = zlib.createDeflateRaw({ level: 3, memLevel: 9, chunkSize: 1 << 18 });
    d.on('data', (c: Buffer) => {
      this.cur.csize += c.length;
      this.offset += c.length;
      if (!this.out.write(c)) d.pause();
    });
    this.onDrain = () => d.resume();
    this.out.on('drain', this.onDrain);
    this.deflate = d;
  }

  private async put(s: string) {
    const b = Buffer.from(s, 'utf8');
    this.cur.crc = zlib.crc32(b, this.cur.crc);
    this.cur.usize += b.length;
    if (!this.deflate!.write(b)) await once(this.deflate!, 'drain');
  }

  private async endEntry() {
    const d = this.deflate!;
    d.end();
    await once(d, 'end');
    if (this.onDrain) this.out.off('drain', this.onDrain);
    this.onDrain = null;
    this.deflate = null;
    if (this.cur.usize >= 2 ** 32 || this.offset >= 2 ** 32) throw new Error('export too large for one XLSX file');
    await this.raw(Buffer.concat([u32(0x08074b50), u32(this.cur.crc), u32(this.cur.csize), u32(this.cur.usize)]));
    this.entries.push({ ...this.cur });
  }

  private async smallEntry(name: string, content: string) {
    await this.startEntry(name);
    await this.put(content);
    await this.endEntry();
  }

  private async startSheet() {
    const n = this.sheets.length + 1;
    const base = this.sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 25) || 'Sheet';
    this.sheets.push(n === 1 ? base : `${base} (${n})`);
    await this.startEntry(`xl/worksheets/sheet${n}.xml`);
    const widths = this.cols.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('');
    await this.put(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
        `<cols>${widths}</cols><sheetData>` +
        `<row r="1">${this.cols.map((c, i) => textCell(`${this.refs[i]}1`, c.label, 1)).join('')}</row>`,
    );
    this.rowNo = 1;
  }

  private async endSheet() {
    await this.put('</sheetData></worksheet>');
    await this.endEntry();
  }

  /**
   * Writes rows (cells in column order; numbers as numbers, text as inline strings). With `fill`,
   * `rows` are source rows and `fill(row, cells)` puts each one's cells into one reused array.
   */
  async rows<R = XlsxCell[]>(rows: R[], fill?: (row: R, cells: XlsxCell[]) => void) {
    if (!this.sheets.length) await this.startSheet();
    let xml = '';
    const reused: XlsxCell[] = new Array(this.cols.length);
    for (const row of rows) {
      let cells: XlsxCell[];
      if (fill) {
        fill(row, reused);
        cells = reused;
      } else cells = row as XlsxCell[];
      if (this.rowNo > this.maxRows) {
        await this.put(xml);
        xml = '';
        await this.endSheet();
        await this.startSheet();
      }
      const r = ++this.rowNo;
      xml += `<row r="${r}">`;
      for (let i = 0; i < cells.length; i++) {
        const v = cells[i];
        if (v === null || v === '') continue;
        const ref = this.refs[i] + r;
        if (typeof v === 'number') xml += `<c r="${ref}" s="2"><v>${v}</v></c>`;
        else if (this.cols[i].kind === 'number') {
          const dot = v.indexOf('.');
          const d = dot < 0 ? 0 : Math.min(4, v.length - dot - 1);
          xml += `<c r="${ref}" s="${NUM_STYLE[d]}"><v>${v}</v></c>`;
        } else xml += textCell(ref, v);
      }
      xml += '</row>';
      if (xml.length > 1 << 16) {
        await this.put(xml);
        xml = '';
      }
    }
    if (xml) await this.put(xml);
  }

  async end() {
    if (!this.sheets.length) await this.startSheet();
    await this.endSheet();
    const sheets = this.sheets;
    await this.smallEntry(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
        '</Types>',
    );
    await this.smallEntry(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    );
    await this.smallEntry(
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>' +
        sheets.map((s, i) => `<sheet name="${esc(s).replace(/"/g, '&quot;')}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
        '</sheets></workbook>',
    );
    await this.smallEntry(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
        `<Relationship Id="rId${sheets.length + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    );
    await this.smallEntry('xl/styles.xml', STYLES);
    // Central directory and its end record.
    const start = this.offset;
    for (const e of this.entries) {
      const n = Buffer.from(e.name, 'utf8');
      await this.raw(
        Buffer.concat([
          u32(0x02014b50),
          u16(20),
          u16(20),
          u16(0x0808),
          u16(8),
          u16(0),
          u16(0x21),
          u32(e.crc),
          u32(e.csize),
          u32(e.usize),
          u16(n.length),
          u16(0),
          u16(0),
          u16(0),
          u16(0),
          u32(0),
          u32(e.offset),
          n,
        ]),
      );
    }
    const size = this.offset - start;
    await this.raw(Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(this.entries.length), u16(this.entries.length), u32(size), u32(start), u16(0)]));
    this.out.end();
    await once(this.out, 'finish').catch(() => undefined);
  }
}
