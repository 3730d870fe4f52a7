import { toDecimal, type Language, type SettleBatchQuery, type SettleBatchRow } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { badRequest } from '../../lib/errors';
import { createPdf, pdfMoney, pdfDateTime, pdfPageNumbers, pdfTable, pdfToBuffer, PDF_FONT, PDF_FONT_BOLD } from '../../lib/pdf';
import { csvLine } from './settle-statement.csv';
import { STATEMENT_LABELS } from './settle-statement.labels';

interface BatchDbRow {
  txn_set_date: string;
  mer_id: string;
  mer_name: string;
  bus_line: string;
  set_cur: string;
  txn_count: number;
  recon_set_amount: number;
  fee_amount: number;
  serv_amount: number;
  released_amount: number;
  net_amount: number;
  history_pending: number;
  total_pending: number;
  real_trans_before_fee: number;
  tran_fee: number;
  real_trans_amount: number;
  remit_date: string | null;
  recon_search_date: string;
}

const BATCH_COLS = `s.txn_set_date, s.mer_id, m.name AS mer_name, s.bus_line, s.set_cur, s.txn_count, s.recon_set_amount, s.fee_amount,
  s.serv_amount, s.released_amount, s.net_amount, s.history_pending, s.total_pending, s.real_trans_before_fee, s.tran_fee,
  s.real_trans_amount, s.remit_date, s.recon_search_date`;

function toBatch(r: BatchDbRow): SettleBatchRow {
  const c = r.set_cur.trim();
  const m = (v: number) => toDecimal(v, c);
  return {
    id: `${r.txn_set_date}|${r.mer_id}|${r.bus_line}|${c}`,
    txnSetDate: r.txn_set_date,
    clientid: r.mer_id,
    merName: r.mer_name,
    reconBusiness: r.bus_line,
    merTxnSet: c,
    txnCount: r.txn_count,
    settleAmount: m(r.recon_set_amount + r.fee_amount),
    fee: m(r.fee_amount),
    reconSetAmount: m(r.recon_set_amount),
    servAmount: m(r.serv_amount),
    releasedAmount: m(r.released_amount),
    netAmount: m(r.net_amount),
    historyPendingAmount: m(r.history_pending),
    realTransAmountBeforeTransFee: m(r.real_trans_before_fee),
    tranFee: m(r.tran_fee),
    realTransAmount: m(r.real_trans_amount),
    totalPendingAmount: m(r.total_pending),
    remitDate: r.remit_date,
    reconSearchDate: r.recon_search_date,
  };
}

/** Settlement batches (the settlement rows) of the caller's merchants, newest settlement date first. */
export async function settleBatches(q: Queryable, scope: string[], f: SettleBatchQuery) {
  if (f.beginDate > f.endDate) throw badRequest('beginDate must not be after endDate');
  const params: unknown[] = [scope, f.beginDate, f.endDate];
  let where = 's.mer_id = ANY($1::text[]) AND s.txn_set_date BETWEEN $2::date AND $3::date';
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where += ` AND ${sql.replace('?', `$${params.length}`)}`;
  };
  if (f.merId) add('s.mer_id = ?', f.merId);
  if (f.busLine) add('s.bus_line = ?', f.busLine);
  if (f.setCur) add('s.set_cur = ?', f.setCur);
  if (f.remitDate) add('s.remit_date = ?::date', f.remitDate);
  const total = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM settlement s WHERE ${where}`, params);
  const { rows } = await q.query<BatchDbRow>(
    `SELECT ${BATCH_COLS} FROM settlement s JOIN merchant m ON m.mer_id = s.mer_id WHERE ${where}
      ORDER BY s.txn_set_date DESC, s.mer_id, s.bus_line, s.set_cur LIMIT ${f.size} OFFSET ${f.page * f.size}`,
    params,
  );
  return { content: rows.map(toBatch), totalElements: total.rows[0].n };
}

export interface StatementKey {
  date: string;
  merId: string;
  busLine: string;
  setCur: string;
}

interface StatementTxn {
  order_no: string;
  tran_type: string;
  txn_time: Date;
  amount: number;
  amount_sign: number;
  currency: string;
  payment_brand: string | null;
  settle_amount: number;
  settle_fee: number;
}

/** One batch with its transactions, or null when it is not in the caller's scope (404). */
export async function loadStatement(q: Queryable, scope: string[], k: StatementKey) {
  const { rows } = await q.query<BatchDbRow>(
    `SELECT ${BATCH_COLS} FROM settlement s JOIN merchant m ON m.mer_id = s.mer_id
      WHERE s.mer_id = $1 AND s.mer_id = ANY($2::text[]) AND s.bus_line = $3 AND s.set_cur = $4 AND s.txn_set_date = $5::date`,
    [k.merId, scope, k.busLine, k.setCur, k.date],
  );
  if (!rows[0]) return null;
  const txns = await q.query<StatementTxn>(
    `SELECT order_no, tran_type, txn_time, amount, amount_sign, currency, payment_brand, coalesce(settle_amount, 0)::int8 AS settle_amount,
            coalesce(settle_fee, 0)::int8 AS settle_fee
       FROM txn WHERE mer_id = $1 AND bus_line = $2 AND settle_currency = $3 AND settle_date = $4::date ORDER BY txn_time, id`,
    [k.merId, k.busLine, k.setCur, k.date],
  );
  return { row: rows[0], batch: toBatch(rows[0]), txns: txns.rows };
}

type Loaded = NonNullable<Awaited<ReturnType<typeof loadStatement>>>;

/** The totals block: label → minor units, in the order both files show them. */
function totals(s: Loaded) {
  const r = s.row;
  return [
    ['settled', r.recon_set_amount + r.fee_amount],
    ['fees', r.fee_amount],
    ['reconSetAmount', r.recon_set_amount],
    ['servAmount', r.serv_amount],
    ['released', r.released_amount],
    ['net', r.net_amount],
    ['historyPending', r.history_pending],
    ['beforeFee', r.real_trans_before_fee],
    ['tranFee', r.tran_fee],
    ['realTrans', r.real_trans_amount],
    ['totalPending', r.total_pending],
  ] as const;
}

export function statementFileName(k: StatementKey, lang: Language, ext: string) {
  return `${STATEMENT_LABELS.title[lang]}_${k.merId}_${k.busLine}_${k.setCur}_${k.date}.${ext}`;
}

/** The statement as CSV (UTF-8 with BOM, CRLF): header facts, the transactions, then the totals. */
export function statementCsv(s: Loaded, lang: Language, tz: string): string {
  const L = STATEMENT_LABELS;
  const c = s.batch.merTxnSet;
  const lines = [
    csvLine([L.title[lang]]),
    csvLine([L.merchant[lang], `${s.batch.clientid} ${s.batch.merName}`]),
    csvLine([L.busLine[lang], s.batch.reconBusiness]),
    csvLine([L.currency[lang], c]),
    csvLine([L.settleDate[lang], s.batch.txnSetDate]),
    csvLine([L.remitDate[lang], s.batch.remitDate ?? '']),
    '',
    csvLine([L.orderNo[lang], L.type[lang], L.txnTime[lang], L.brand[lang], L.txnAmount[lang], L.txnCurrency[lang], L.settleAmount[lang], L.fee[lang], L.netCol[lang]]),
    ...s.txns.map((t) =>
      csvLine([
        t.order_no,
        t.tran_type,
        pdfDateTime(new Date(t.txn_time), tz),
        t.payment_brand ?? '',
        toDecimal(t.amount * t.amount_sign, t.currency.trim()),
        t.currency.trim(),
        toDecimal(t.settle_amount, c),
        toDecimal(t.settle_fee, c),
        toDecimal(t.settle_amount - t.settle_fee, c),
      ]),
    ),
    '',
    ...totals(s).map(([k, v]) => csvLine([L[k][lang], toDecimal(v, c)])),
  ];
  return '\ufeff' + lines.join('\r\n') + '\r\n';
}

/** The statement as PDF in the reader's language (CJK faces embedded, subset). */
export async function statementPdf(s: Loaded, lang: Language, tz: string, now: Date): Promise<Buffer> {
  const L = STATEMENT_LABELS;
  const c = s.batch.merTxnSet;
  const doc = createPdf({ lang, title: `${L.title[lang]} ${s.batch.clientid} ${s.batch.txnSetDate}`, createdAt: now });
  doc.font(PDF_FONT_BOLD).fontSize(16).text(L.title[lang]);
  doc.moveDown(0.5).font(PDF_FONT).fontSize(9);
  const facts: [string, string][] = [
    [L.merchant[lang], `${s.batch.clientid}  ${s.batch.merName}`],
    [L.busLine[lang], s.batch.reconBusiness],
    [L.currency[lang], c],
    [L.settleDate[lang], s.batch.txnSetDate],
    [L.remitDate[lang], s.batch.remitDate ?? '—'],
    [L.generated[lang], pdfDateTime(now, tz)],
  ];
  for (const [k, v] of facts) doc.text(`${k}: ${v}`);
  doc.moveDown(0.8);
  doc.font(PDF_FONT_BOLD).fontSize(11).text(L.totals[lang]);
  doc.moveDown(0.3);
  pdfTable(
    doc,
    [
      { header: L.item[lang], width: 260 },
      { header: c, width: 140, align: 'right' },
    ],
    totals(s).map(([k, v]) => [L[k][lang], pdfMoney(v, c, lang)]),
    9,
  );
  doc.moveDown(0.8);
  doc.font(PDF_FONT_BOLD).fontSize(11).text(`${L.transactions[lang]} (${s.txns.length})`);
  doc.moveDown(0.3);
  pdfTable(
    doc,
    [
      { header: L.orderNo[lang], width: 110 },
      { header: L.type[lang], width: 50 },
      { header: L.txnTime[lang], width: 85 },
      { header: L.txnAmount[lang], width: 75, align: 'right' },
      { header: L.settleAmount[lang], width: 70, align: 'right' },
      { header: L.fee[lang], width: 50, align: 'right' },
      { header: L.netCol[lang], width: 75, align: 'right' },
    ],
    s.txns.map((t) => [
      t.order_no,
      t.tran_type,
      pdfDateTime(new Date(t.txn_time), tz).slice(0, 16),
      `${pdfMoney(t.amount * t.amount_sign, t.currency.trim(), lang)} ${t.currency.trim()}`,
      pdfMoney(t.settle_amount, c, lang),
      pdfMoney(t.settle_fee, c, lang),
      pdfMoney(t.settle_amount - t.settle_fee, c, lang),
    ]),
    7,
  );
  pdfPageNumbers(doc);
  return pdfToBuffer(doc);
}
