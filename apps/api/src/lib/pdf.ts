/**
 * Shared PDF setup (decision 016): pdfkit documents with an embedded Noto Sans CJK face chosen by
 * the reader's language, so zh, ja, ko and en all render (Latin digits and letters are in every
 * face). pdfkit subsets the font on embed: a statement carries only the glyphs it uses.
 *
 * Used by settlement statements, monthly statements and the store QR sign.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import { formatMoney, type Language } from '@portal/contract';

const require = createRequire(import.meta.url);

/** Regular and bold faces per language: Simplified Chinese forms for zh/en, Japanese for ja, Korean for ko. */
const FONT_FILES: Record<Language, { pkg: string; regular: string; bold: string }> = {
  en: { pkg: '@embedpdf/fonts-sc', regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' },
  zh: { pkg: '@embedpdf/fonts-sc', regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' },
  ja: { pkg: '@embedpdf/fonts-jp', regular: 'NotoSansJP-Regular.otf', bold: 'NotoSansJP-Bold.otf' },
  ko: { pkg: '@embedpdf/fonts-kr', regular: 'NotoSansKR-Regular.otf', bold: 'NotoSansKR-Bold.otf' },
};

/** Absolute path of a font file shipped by its npm package. */
function fontPath(lang: Language, weight: 'regular' | 'bold' = 'regular'): string {
  const f = FONT_FILES[lang] ?? FONT_FILES.en;
  // the packages export only their index (dist/index.js); the fonts sit beside dist/
  const pkgDir = dirname(dirname(require.resolve(f.pkg)));
  return join(pkgDir, 'fonts', f[weight]);
}

export const PDF_FONT = 'body';
export const PDF_FONT_BOLD = 'bold';

export interface PdfOptions {
  lang: Language;
  title: string;
  /** A4 portrait by default. */
  layout?: 'portrait' | 'landscape';
  size?: string | [number, number];
  /** Fixed creation date (tests, reproducible files). */
  createdAt?: Date;
}

/** A new document with both faces registered and the body face selected. */
export function createPdf(opts: PdfOptions): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: opts.size ?? 'A4',
    layout: opts.layout ?? 'portrait',
    margin: 40,
    bufferPages: true,
    info: { Title: opts.title, Producer: 'merchant portal', Creator: 'merchant portal', CreationDate: opts.createdAt ?? new Date() },
    lang: opts.lang,
  });
  doc.registerFont(PDF_FONT, fontPath(opts.lang, 'regular'));
  doc.registerFont(PDF_FONT_BOLD, fontPath(opts.lang, 'bold'));
  doc.font(PDF_FONT);
  return doc;
}

/** Ends the document and collects it into one buffer. */
export function pdfToBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** Money for a PDF cell: grouped in the reader's locale with the currency's decimals, e.g. "1,234.50". */
export function pdfMoney(minor: number | bigint, currency: string, lang: Language): string {
  return formatMoney(minor, currency, lang);
}

/** A date (yyyy-MM-dd, already in the platform zone) stays as is; a Date is shown in `timeZone`. */
export function pdfDate(d: string | Date, timeZone = 'Asia/Shanghai'): string {
  if (typeof d === 'string') return d;
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}

export function pdfDateTime(d: Date, timeZone = 'Asia/Shanghai'): string {
  const p = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(d);
  const g = (t: string) => p.find((x) => x.type === t)?.value ?? '';
  return `${g('year')}-${g('month')}-${g('day')} ${g('hour')}:${g('minute')}:${g('second')}`;
}

export interface PdfColumn {
  header: string;
  width: number;
  align?: 'left' | 'right' | 'center';
}

/**
 * Draws a simple table from the current y: a bold header row, then the rows; adds pages as needed
 * (repeating the header). Returns the y below the table.
 */
export function pdfTable(doc: PDFKit.PDFDocument, columns: PdfColumn[], rows: string[][], fontSize = 8): number {
  const left = doc.page.margins.left;
  const rowH = fontSize + 6;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const header = () => {
    let x = left;
    doc.font(PDF_FONT_BOLD).fontSize(fontSize);
    const y = doc.y;
    for (const c of columns) {
      doc.text(c.header, x + 2, y + 2, { width: c.width - 4, align: c.align ?? 'left', lineBreak: false, ellipsis: true });
      x += c.width;
    }
    const w = columns.reduce((s, c) => s + c.width, 0);
    doc
      .moveTo(left, y + rowH)
      .lineTo(left + w, y + rowH)
      .lineWidth(0.5)
      .stroke();
    doc.y = y + rowH + 1;
    doc.font(PDF_FONT).fontSize(fontSize);
  };
  header();
  for (const r of rows) {
    if (doc.y + rowH > bottom()) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    let x = left;
    columns.forEach((c, i) => {
      doc.text(r[i] ?? '', x + 2, y + 2, { width: c.width - 4, align: c.align ?? 'left', lineBreak: false, ellipsis: true });
      x += c.width;
    });
    doc.y = y + rowH;
  }
  doc.x = left;
  return doc.y;
}

/** Page numbers "n / N" at the foot of every page (call before pdfToBuffer; needs bufferPages). */
export function pdfPageNumbers(doc: PDFKit.PDFDocument): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font(PDF_FONT)
      .fontSize(7)
      .text(`${i + 1} / ${range.count}`, doc.page.margins.left, doc.page.height - 25, {
        width: doc.page.width - doc.page.margins.left - doc.page.margins.right,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
}
