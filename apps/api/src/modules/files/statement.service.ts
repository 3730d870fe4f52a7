import { toDecimal, type Language } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { createPdf, pdfDateTime, pdfMoney, pdfPageNumbers, pdfTable, pdfToBuffer, PDF_FONT, PDF_FONT_BOLD } from '../../lib/pdf';
import { csvLine, STATEMENT_LABELS, statementTypeLabel } from '../txn';

/** The month's first and last calendar dates ('YYYY-MM' → ['YYYY-MM-01', 'YYYY-MM-28..31']). */
export function monthBounds(month: string): [string, string] {
  const [y, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return [`${month}-01`, `${month}-${String(last).padStart(2, '0')}`];
}

/** 'YYYY-MM' n months after `month` (n may be negative). */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export interface StatementTransfer {
  setDate: string;
  remitDate: string | null;
  busLine: string;
  beforeFee: number;
  fee: number;
  net: number;
}

/** The monthly statement of one merchant and settlement currency (domain.md "Monthly statement"), minor units. */
export interface MonthlyStatement {
  merId: string;
  merName: string;
  currency: string;
  month: string;
  opening: number;
  /** Σ signed converted amounts by transaction type (settlement date in the month). */
  settledByType: { type: string; count: number; amount: number }[];
  settled: number;
  fees: number;
  withheld: number;
  released: number;
  transfers: StatementTransfer[];
  transferred: number;
  transferFees: number;
  closing: number;
  /** Reserve held − released at month end (I4). */
  outstandingReserve: number;
  /** Whether anything happened or is carried: a statement of nothing is not published. */
  active: boolean;
}

const n = (v: unknown) => Number(v ?? 0);

/**
 * Builds the statement from rows that already exist: the settlement rows (pending balances,
 * reserves, transfers), the settled transactions, the reserve rows. The pending balance of a
 * (merchant, currency) is the sum over its business lines of each line's last `totalPendingAmount`
 * (= the next row's `historyPendingAmount`, I3), so the closing of M is the opening of M+1.
 */
export async function buildStatement(q: Queryable, merId: string, currency: string, month: string): Promise<MonthlyStatement> {
  const [first, last] = monthBounds(month);
  const pendingBefore = async (cmp: '<' | '<=', date: string) => {
    const { rows } = await q.query<{ s: string | null }>(
      `SELECT sum(total_pending) AS s FROM (SELECT DISTINCT ON (bus_line) total_pending FROM settlement
          WHERE mer_id = $1 AND set_cur = $2 AND txn_set_date ${cmp} $3::date ORDER BY bus_line, txn_set_date DESC) p`,
      [merId, currency, date],
    );
    return n(rows[0].s);
  };
  const [opening, closing] = [await pendingBefore('<', first), await pendingBefore('<=', last)];
  const types = await q.query<{ tran_type: string; c: number; a: string; f: string }>(
    `SELECT tran_type, count(*)::int AS c, sum(settle_amount) AS a, sum(coalesce(settle_fee, 0)) AS f FROM txn
      WHERE mer_id = $1 AND settle_currency = $2 AND settle_date BETWEEN $3::date AND $4::date GROUP BY tran_type ORDER BY tran_type`,
    [merId, currency, first, last],
  );
  const sums = await q.query<{ held: string | null; rel: string | null; c: number }>(
    `SELECT sum(serv_amount) AS held, sum(released_amount) AS rel, count(*)::int AS c FROM settlement
      WHERE mer_id = $1 AND set_cur = $2 AND txn_set_date BETWEEN $3::date AND $4::date`,
    [merId, currency, first, last],
  );
  const tr = await q.query<{ d: string; r: string | null; b: string; bf: string; f: string; net: string }>(
    `SELECT to_char(txn_set_date, 'YYYY-MM-DD') AS d, to_char(remit_date, 'YYYY-MM-DD') AS r, bus_line AS b, real_trans_before_fee AS bf,
            tran_fee AS f, real_trans_amount AS net FROM settlement
      WHERE mer_id = $1 AND set_cur = $2 AND txn_set_date BETWEEN $3::date AND $4::date AND trans_amount <> 0 ORDER BY txn_set_date, bus_line`,
    [merId, currency, first, last],
  );
  const reserve = await q.query<{ s: string | null }>(`SELECT sum(amount) AS s FROM reserve WHERE mer_id = $1 AND set_cur = $2 AND txn_set_date <= $3::date AND release_date > $3::date`, [
    merId,
    currency,
    last,
  ]);
  const name = await q.query<{ name: string }>('SELECT name FROM merchant WHERE mer_id = $1', [merId]);
  const settledByType = types.rows.map((t) => ({ type: t.tran_type, count: t.c, amount: n(t.a) }));
  const transfers = tr.rows.map((t) => ({ setDate: t.d, remitDate: t.r, busLine: t.b, beforeFee: n(t.bf), fee: n(t.f), net: n(t.net) }));
  const outstandingReserve = n(reserve.rows[0].s);
  return {
    merId,
    merName: name.rows[0]?.name ?? '',
    currency,
    month,
    opening,
    settledByType,
    settled: settledByType.reduce((s, t) => s + t.amount, 0),
    fees: types.rows.reduce((s, t) => s + n(t.f), 0),
    withheld: n(sums.rows[0].held),
    released: n(sums.rows[0].rel),
    transfers,
    transferred: transfers.reduce((s, t) => s + t.beforeFee, 0),
    transferFees: transfers.reduce((s, t) => s + t.fee, 0),
    closing,
    outstandingReserve,
    active: sums.rows[0].c > 0 || opening !== 0 || closing !== 0 || outstandingReserve !== 0,
  };
}

/** The statement's lines in the order both files show them (label key or by-type label, minor units). */
function statementLines(s: MonthlyStatement, lang: Language): [string, number][] {
  const L = STATEMENT_LABELS;
  return [
    [L.opening[lang], s.opening],
    ...s.settledByType.map((t): [string, number] => [L.settledBy[lang].replace('{type}', statementTypeLabel(t.type, lang)), t.amount]),
    [L.fees[lang], -s.fees],
    [L.withheld[lang], -s.withheld],
    [L.released[lang], s.released],
    [L.transfers[lang], -s.transferred],
    [L.closing[lang], s.closing],
  ];
}

export function statementCsv(s: MonthlyStatement, lang: Language): string {
  const L = STATEMENT_LABELS;
  const m = (v: number) => toDecimal(v, s.currency);
  const lines = [
    csvLine([L.monthlyTitle[lang]]),
    csvLine([L.merchant[lang], `${s.merId} ${s.merName}`]),
    csvLine([L.currency[lang], s.currency]),
    csvLine([L.period[lang], s.month]),
    // The dates below are days of the platform's zone (issue 53: a CSV named no zone).
    csvLine([L.zone[lang], L.platformZone[lang]]),
    '',
    csvLine([L.item[lang], s.currency]),
    ...statementLines(s, lang).map(([k, v]) => csvLine([k, m(v)])),
    csvLine([L.outstanding[lang], m(s.outstandingReserve)]),
    '',
    csvLine([L.transferList[lang]]),
    csvLine([L.settleDate[lang], L.remitDate[lang], L.busLine[lang], L.beforeFee[lang], L.tranFee[lang], L.realTrans[lang]]),
    ...s.transfers.map((t) => csvLine([t.setDate, t.remitDate ?? '', t.busLine, m(t.beforeFee), m(t.fee), m(t.net)])),
  ];
  return '\ufeff' + lines.join('\r\n') + '\r\n';
}

export async function statementPdf(s: MonthlyStatement, lang: Language, tz: string, now: Date): Promise<Buffer> {
  const L = STATEMENT_LABELS;
  const c = s.currency;
  const doc = createPdf({ lang, title: `${L.monthlyTitle[lang]} ${s.merId} ${s.month} ${c}`, createdAt: now });
  doc.font(PDF_FONT_BOLD).fontSize(16).text(L.monthlyTitle[lang]);
  doc.moveDown(0.5).font(PDF_FONT).fontSize(9);
  for (const [k, v] of [
    [L.merchant[lang], `${s.merId}  ${s.merName}`],
    [L.currency[lang], c],
    [L.period[lang], s.month],
    [L.generated[lang], pdfDateTime(now, tz)],
  ])
    doc.text(`${k}: ${v}`);
  doc.moveDown(0.8);
  doc.font(PDF_FONT_BOLD).fontSize(11).text(L.totals[lang]);
  doc.moveDown(0.3);
  const rows = statementLines(s, lang).map(([k, v]) => [k, pdfMoney(v, c, lang)]);
  rows.push([L.outstanding[lang], pdfMoney(s.outstandingReserve, c, lang)]);
  pdfTable(
    doc,
    [
      { header: L.item[lang], width: 300 },
      { header: c, width: 160, align: 'right' },
    ],
    rows,
    9,
  );
  doc.moveDown(0.8);
  doc.font(PDF_FONT_BOLD).fontSize(11).text(`${L.transferList[lang]} (${s.transfers.length})`);
  doc.moveDown(0.3);
  pdfTable(
    doc,
    [
      { header: L.settleDate[lang], width: 80 },
      { header: L.remitDate[lang], width: 80 },
      { header: L.busLine[lang], width: 70 },
      { header: L.beforeFee[lang], width: 100, align: 'right' },
      { header: L.tranFee[lang], width: 80, align: 'right' },
      { header: L.realTrans[lang], width: 100, align: 'right' },
    ],
    s.transfers.map((t) => [t.setDate, t.remitDate ?? '—', t.busLine, pdfMoney(t.beforeFee, c, lang), pdfMoney(t.fee, c, lang), pdfMoney(t.net, c, lang)]),
    8,
  );
  pdfPageNumbers(doc);
  return pdfToBuffer(doc);
}
