/**
 * The payout proof as a file (issue 49 §1): CSV or PDF in the reader's language, the settlement
 * currency and the time zone stated at the top; each line, then every row beneath it and the rows'
 * total, then the amount sent — so an auditor can re-add it by hand.
 */
import { brandName, formatMoney, toDecimal, type Language } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { badRequest } from '../../lib/errors';
import { createPdf, pdfDateTime, pdfPageNumbers, pdfTable, pdfToBuffer, PDF_FONT, PDF_FONT_BOLD } from '../../lib/pdf';
import { lineLabel, lineRowsRaw, proofRaw, type ProofRaw, type TransferKey } from './proof.service';
import { TYPE_LABELS, type Labels, type ProofRowDb } from './proof.sources';

/** Rows a PDF proof may hold (beyond: CSV). */
export const PDF_MAX_ROWS = 20_000;

const L = (en: string, zh: string, ko: string, ja: string): Labels => ({ en, zh, ko, ja });
const T = {
  title: L('Payout proof', '出款证明', '지급 증명', '入金の証明'),
  merchant: L('Merchant', '商户', '가맹점', '加盟店'),
  busLine: L('Business line', '业务线', '사업 라인', '事業ライン'),
  currency: L('Currency', '币种', '통화', '通貨'),
  currencyNote: L(
    'all amounts in {cur}, in its decimals; signed: + adds to the deposit, − takes from it',
    '所有金额以 {cur} 计；带符号：+ 计入出款，− 从中扣减',
    '모든 금액은 {cur} 기준, 부호 포함: +는 입금에 더하고 −는 뺍니다',
    '金額はすべて {cur}、符号付き：+ は入金に加算、− は減算',
  ),
  range: L('Settlement dates', '结算日期', '정산일', '精算日'),
  remit: L('Remittance date', '划款日期', '송금일', '送金日'),
  zone: L('Time zone', '时区', '시간대', 'タイムゾーン'),
  zoneNote: L(
    'settlement dates are days in {platform}; times in {zone}',
    '结算日期为 {platform} 的日期；时间按 {zone}',
    '정산일은 {platform} 기준 날짜, 시간은 {zone} 기준',
    '精算日は {platform} の日付、時刻は {zone}',
  ),
  line: L('Line', '项目', '항목', '項目'),
  ref: L('Reference', '参考号', '참조', '参照'),
  day: L('Settled on', '结算日', '정산일', '精算日'),
  late: L('Late', '延迟', '지연', '遅延'),
  time: L('Transaction time', '交易时间', '거래 시간', '取引時刻'),
  brand: L('Brand', '品牌', '브랜드', 'ブランド'),
  type: L('Type', '类型', '유형', '種別'),
  txnCur: L('Transaction currency', '交易币种', '거래 통화', '取引通貨'),
  txnAmount: L('Transaction amount', '交易金额', '거래 금액', '取引金額'),
  rate: L('Rate', '汇率', '환율', 'レート'),
  amount: L('Amount', '金额', '금액', '金額'),
  rowsTotal: L('Total of the rows', '明细合计', '행 합계', '明細の合計'),
  sent: L('Amount sent to the bank (sum of the lines)', '划入银行金额（各行合计）', '은행 송금액 (행 합계)', '銀行への送金額（行の合計）'),
  linesTotal: L('Sum of the lines', '各行合计', '행 합계', '行の合計'),
  yes: L('yes', '是', '예', 'はい'),
  pdfTooLarge: L(
    'this proof has {n} rows, more than a PDF holds ({max}): export it as CSV',
    '该证明共有 {n} 行，超过 PDF 的上限（{max}）：请导出为 CSV',
    '이 증명은 {n}행으로 PDF 한도({max})를 넘습니다. CSV로 내보내세요',
    'この証明は {n} 行あり、PDF の上限（{max}）を超えています。CSV でエクスポートしてください',
  ),
  badZone: L('unknown time zone', '未知时区', '알 수 없는 시간대', '不明なタイムゾーン'),
  reserveOf: L('reserve entry of', '保证金记录', '보증금 항목', '保証金エントリ'),
};

export interface ProofFileRow {
  /** 'line' | 'row' | 'total' | 'sent' */
  kind: 'line' | 'row' | 'total' | 'sent';
  cells: string[];
}

/** A proof's raw numbers plus every row of every line, in order. */
export async function proofWithRows(q: Queryable, scope: readonly string[], key: TransferKey): Promise<{ raw: ProofRaw; rows: ProofRowDb[][] } | null> {
  const raw = await proofRaw(q, scope, key);
  if (!raw) return null;
  const rows: ProofRowDb[][] = [];
  for (const l of raw.lines) rows.push(l.n === 0 && l.amount === 0 ? [] : await lineRowsRaw(q, raw.row, l.source, l.part, 1_000_000, 0));
  return { raw, rows };
}

/** The refusal of an unknown zone, in the reader's language. */
export const badZone = (lang: Language, zone: string) => badRequest(`${T.badZone[lang]}: ${zone.slice(0, 64)}`);

/** A valid IANA zone. */
export function checkZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const fill = (s: string, p: Record<string, string>) => s.replace(/\{(\w+)\}/g, (_, k: string) => p[k] ?? '');

/** The file's table (header block excluded): line, its rows, their total; the amount sent last. */
function table(raw: ProofRaw, rows: ProofRowDb[][], lang: Language, zone: string, cell: (minor: number, cur: string) => string): ProofFileRow[] {
  const cur = raw.row.set_cur.trim();
  const out: ProofFileRow[] = [];
  raw.lines.forEach((l, i) => {
    out.push({ kind: 'line', cells: [lineLabel(l.source, l.part, lang), '', '', '', '', '', '', '', '', '', cell(l.amount, cur)] });
    for (const r of rows[i]) {
      const ref = r.kind === 'reserve' ? `${T.reserveOf[lang]} ${r.ref}` : r.ref;
      out.push({
        kind: 'row',
        cells: [
          '',
          ref,
          r.day,
          r.late ? T.late[lang] : '',
          r.txn_time ? pdfDateTime(new Date(r.txn_time), zone) : '',
          r.brand ? brandName(r.brand) : '',
          r.type ? (TYPE_LABELS[r.type]?.[lang] ?? r.type) : '',
          r.cur?.trim() ?? '',
          r.txn_amount != null && r.cur ? cell(r.txn_amount, r.cur.trim()) : '',
          r.kind === 'txn' ? (r.rate ? r.rate.replace(/0+$/, '').replace(/\.$/, '') : '1') : '',
          cell(r.amount, cur),
        ],
      });
    }
    if (rows[i].length)
      out.push({
        kind: 'total',
        cells: [
          '',
          T.rowsTotal[lang],
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          cell(
            rows[i].reduce((s, r) => s + Number(r.amount), 0),
            cur,
          ),
        ],
      });
  });
  out.push({ kind: 'sent', cells: [T.sent[lang], '', '', '', '', '', '', '', '', '', cell(raw.row.real_trans_amount, cur)] });
  return out;
}

function header(raw: ProofRaw, lang: Language, zone: string, platformTz: string): [string, string][] {
  const t = raw.row;
  const cur = t.set_cur.trim();
  return [
    [T.title[lang], `${t.txn_set_date}.${t.mer_id}.${t.bus_line}.${cur}`],
    [T.merchant[lang], `${t.mer_id} - ${t.mer_name}`],
    [T.busLine[lang], t.bus_line],
    [T.currency[lang], `${cur} (${fill(T.currencyNote[lang], { cur })})`],
    [T.range[lang], `${t.recon_search_date} – ${t.txn_set_date}`],
    [T.remit[lang], t.remit_date ?? ''],
    [T.zone[lang], `${zone} (${fill(T.zoneNote[lang], { platform: platformTz, zone })})`],
  ];
}

const COLS = (lang: Language, cur: string) => [
  T.line[lang],
  T.ref[lang],
  T.day[lang],
  T.late[lang],
  T.time[lang],
  T.brand[lang],
  T.type[lang],
  T.txnCur[lang],
  T.txnAmount[lang],
  T.rate[lang],
  `${T.amount[lang]} (${cur})`,
];

/** One CSV line (RFC 4180), a formula start neutralised. */
export function csvCells(cells: string[]): string {
  return cells
    .map((v) => {
      let s = v;
      if (/^[=+@\t\r]/.test(s) || (s.startsWith('-') && !/^-\d+(\.\d+)?$/.test(s))) s = `'${s}`;
      return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    })
    .join(',');
}

/** The proof as CSV (UTF-8 with BOM, CRLF): amounts as plain decimals a spreadsheet adds. */
export function proofCsv(raw: ProofRaw, rows: ProofRowDb[][], lang: Language, zone: string, platformTz: string): string {
  const cur = raw.row.set_cur.trim();
  const lines = [...header(raw, lang, zone, platformTz).map(([k, v]) => csvCells([k, v])), '', csvCells(COLS(lang, cur))];
  for (const r of table(raw, rows, lang, zone, (m, c) => toDecimal(m, c))) lines.push(csvCells(r.cells));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The proof as PDF (landscape A4, the reader's language). */
export async function proofPdf(raw: ProofRaw, rows: ProofRowDb[][], lang: Language, zone: string, platformTz: string, now: Date): Promise<Buffer> {
  const n = rows.reduce((s, r) => s + r.length, 0);
  if (n > PDF_MAX_ROWS) throw badRequest(fill(T.pdfTooLarge[lang], { n: String(n), max: String(PDF_MAX_ROWS) }));
  const cur = raw.row.set_cur.trim();
  const doc = createPdf({ lang, title: T.title[lang], layout: 'landscape', createdAt: now });
  doc.font(PDF_FONT_BOLD).fontSize(14).text(T.title[lang]);
  doc.moveDown(0.3).font(PDF_FONT).fontSize(8);
  for (const [k, v] of header(raw, lang, zone, platformTz).slice(1)) doc.text(`${k}: ${v}`);
  doc.moveDown(0.5);
  const widths = [150, 90, 58, 30, 80, 62, 62, 40, 70, 50, 70];
  const cols = COLS(lang, cur).map((h, i) => ({ header: h, width: widths[i], align: (i >= 8 ? 'right' : 'left') as 'left' | 'right' }));
  const body = table(raw, rows, lang, zone, (m, c) => formatMoney(m, c, lang));
  pdfTable(
    doc,
    cols,
    body.map((r) => r.cells),
    7,
  );
  pdfPageNumbers(doc);
  return pdfToBuffer(doc);
}

export const proofFileName = (key: TransferKey, lang: Language, format: 'csv' | 'pdf') => `${T.title[lang]}-${key.merId}-${key.busLine}-${key.setCur}-${key.date}.${format}`;
