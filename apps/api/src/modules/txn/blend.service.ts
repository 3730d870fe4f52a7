import { CURRENCY_EXPONENT, toDecimal, toMinor, type BlendResult, type Language, type RowError } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { STATEMENT_COLUMNS, reason } from './logistics.labels';
import { headerIndex, UPLOAD_MAX_ROWS } from './sheet.reader';

/** Lines listed per category at most (the counts stay exact). */
const LIST_MAX = 500;

interface Line {
  row: number;
  orderNo: string;
  merId: string;
  currency: string;
  amount: number;
}

/**
 * Manual reconciliation ("manual blend"): a bank or channel statement (order number, amount,
 * currency, optional merchant id) is matched against the caller's settled transactions. Each line
 * is matched, differing (amount or currency, or not settled yet) or missing from the portal; with
 * a settlement date range, settled transactions of the range absent from the statement are listed too.
 */
export async function manualBlend(deps: Deps, scope: string[], sheet: string[][], lang: Language, range: { beginDate?: string; endDate?: string }): Promise<BlendResult> {
  const errors: RowError[] = [];
  const res: BlendResult = { total: 0, matched: 0, missing: [], differing: [], notInStatement: [], errors };
  const idx = headerIndex(sheet[0] ?? [], STATEMENT_COLUMNS);
  for (const k of ['orderNo', 'amount', 'currency'] as const) {
    if (!idx.has(k)) errors.push({ row: 1, field: k, reason: reason(lang, 'missingColumn', { field: STATEMENT_COLUMNS[k][lang] }) });
  }
  if (errors.length) return res;
  const get = (cells: string[], k: keyof typeof STATEMENT_COLUMNS) => (idx.has(k) ? (cells[idx.get(k)!] ?? '') : '');
  const lines: Line[] = [];
  const body = sheet
    .slice(1)
    .map((cells, i) => ({ cells, row: i + 2 }))
    .filter((r) => r.cells.some((c) => c !== ''));
  if (body.length > UPLOAD_MAX_ROWS) {
    errors.push({ row: UPLOAD_MAX_ROWS + 2, field: '', reason: reason(lang, 'tooManyRows', { max: UPLOAD_MAX_ROWS }) });
    return res;
  }
  for (const { cells, row } of body) {
    const orderNo = get(cells, 'orderNo');
    const currency = get(cells, 'currency').toUpperCase();
    const amountText = get(cells, 'amount').replace(/,/g, '');
    if (!orderNo) {
      errors.push({ row, field: 'orderNo', reason: reason(lang, 'required', { field: STATEMENT_COLUMNS.orderNo[lang] }) });
      continue;
    }
    if (CURRENCY_EXPONENT[currency] === undefined) {
      errors.push({ row, field: 'currency', reason: reason(lang, 'badCurrency', { value: currency }) });
      continue;
    }
    let amount: number;
    try {
      amount = Math.abs(toMinor(amountText, currency));
    } catch {
      errors.push({ row, field: 'amount', reason: reason(lang, 'badAmount', { field: STATEMENT_COLUMNS.amount[lang], currency }) });
      continue;
    }
    lines.push({ row, orderNo, merId: get(cells, 'merId'), currency, amount });
  }
  res.total = lines.length;

  const { rows: txns } = await deps.db.query<{ id: number; mer_id: string; order_no: string; amount: number; currency: string; settle_flag: string; gw_response: string | null }>(
    `SELECT id, mer_id, order_no, amount, currency, settle_flag, gw_response FROM txn
      WHERE order_no = ANY($1::text[]) AND mer_id = ANY($2::text[])`,
    [[...new Set(lines.map((l) => l.orderNo))], scope],
  );
  const byOrder = new Map<string, typeof txns>();
  for (const t of txns) byOrder.set(t.order_no, [...(byOrder.get(t.order_no) ?? []), t]);
  const seenIds = new Set<number>();
  const push = (list: BlendResult['missing'], l: Line, portal: { amount: number; currency: string } | null, why: string) => {
    if (list.length < LIST_MAX) {
      list.push({
        row: l.row,
        orderNo: l.orderNo,
        currency: l.currency,
        statementAmount: toDecimal(l.amount, l.currency),
        portalAmount: portal ? toDecimal(portal.amount, portal.currency) : null,
        reason: why,
      });
    }
  };
  for (const l of lines) {
    const t = (byOrder.get(l.orderNo) ?? []).find((x) => !l.merId || x.mer_id === l.merId);
    if (!t) {
      push(res.missing, l, null, reason(lang, 'notInPortal'));
      continue;
    }
    seenIds.add(t.id);
    const settled = t.gw_response === '00' && t.settle_flag !== 'N';
    if (!settled) push(res.differing, l, t, reason(lang, 'notSettled'));
    else if (t.currency !== l.currency) push(res.differing, l, t, reason(lang, 'currencyDiffers'));
    else if (t.amount !== l.amount) push(res.differing, l, t, reason(lang, 'amountDiffers'));
    else res.matched++;
  }
  if (range.beginDate && range.endDate) {
    const { rows } = await deps.db.query<{ id: number; order_no: string; amount: number; currency: string }>(
      `SELECT id, order_no, amount, currency FROM txn
        WHERE mer_id = ANY($1::text[]) AND settle_date BETWEEN $2::date AND $3::date AND gw_response = '00'
        ORDER BY settle_date, id`,
      [scope, range.beginDate, range.endDate],
    );
    for (const t of rows) {
      if (seenIds.has(t.id) || res.notInStatement.length >= LIST_MAX) continue;
      res.notInStatement.push({ row: 0, orderNo: t.order_no, currency: t.currency, statementAmount: '', portalAmount: toDecimal(t.amount, t.currency), reason: reason(lang, 'notInStatement') });
    }
  }
  return res;
}
