import { LOGISTICS_STATUSES, isIsoDate, type Language, type LogisticsRow, type RowError } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { LOGISTICS_COLUMNS, STATUS_LABELS, reason, type LogisticsKey } from './logistics.labels';
import { headerIndex, UPLOAD_MAX_ROWS } from './sheet.reader';

interface ListQuery {
  page: number;
  size: number;
  merId?: string;
  orderNum?: string;
  shipmentNo?: string;
  beginDate?: string;
  endDate?: string;
}

/** /txn/settleLogisticsList: shipping records of the caller's merchants, newest shipment first. */
export async function logisticsList(deps: Deps, scope: string[], q: ListQuery): Promise<{ content: LogisticsRow[]; totalElements: number }> {
  const params: unknown[] = [scope];
  const c = ['l.mer_id = ANY($1::text[])'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    c.push(sql.replace('?', `$${params.length}`));
  };
  if (q.merId) add('l.mer_id = ?', q.merId);
  if (q.orderNum) add('l.order_no = ?', q.orderNum);
  if (q.shipmentNo) add('l.shipment_no = ?', q.shipmentNo);
  if (q.beginDate) add('l.ship_date >= ?::date', q.beginDate);
  if (q.endDate) add('l.ship_date <= ?::date', q.endDate);
  const where = c.join(' AND ');
  const [list, count] = await Promise.all([
    deps.db.read.query<{
      id: number;
      mer_id: string;
      mer_name: string;
      order_no: string;
      txn_id: number | null;
      shipment_no: string;
      company: string;
      ship_date: string;
      status: string;
      updated_at: Date;
    }>(
      `SELECT l.id, l.mer_id, m.name AS mer_name, l.order_no, l.txn_id, l.shipment_no, l.company, l.ship_date, l.status, l.updated_at
         FROM logistics l JOIN merchant m ON m.mer_id = l.mer_id WHERE ${where}
        ORDER BY l.ship_date DESC, l.id DESC LIMIT ${q.size} OFFSET ${q.page * q.size}`,
      params,
    ),
    deps.db.read.query<{ n: number }>(`SELECT count(*)::int AS n FROM logistics l WHERE ${where}`, params),
  ]);
  return {
    content: list.rows.map((r) => ({
      id: r.id,
      merId: r.mer_id,
      merName: r.mer_name,
      orderNo: r.order_no,
      txnId: r.txn_id,
      shipmentNo: r.shipment_no,
      company: r.company,
      shipDate: r.ship_date,
      status: r.status,
      updatedAt: new Date(r.updated_at).toISOString(),
    })),
    totalElements: count.rows[0].n,
  };
}

interface Parsed {
  row: number;
  merId: string;
  orderNo: string;
  txnId: number;
  shipmentNo: string;
  company: string;
  shipDate: string;
  status: string;
}

const validDate = isIsoDate;

function statusKey(v: string): string | undefined {
  const x = v
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return LOGISTICS_STATUSES.find((s) => s.toLowerCase() === x || Object.values(STATUS_LABELS[s]).some((lb) => lb.toLowerCase() === v.trim().toLowerCase()));
}

/**
 * Checks every row of a logistics sheet (header + rows). Each bad row is reported with its row
 * number (as the spreadsheet numbers it) and reason; the import writes only when none is bad.
 */
async function validateLogistics(q: Queryable, scope: string[], sheet: string[][], lang: Language): Promise<{ rows: Parsed[]; errors: RowError[] }> {
  const errors: RowError[] = [];
  const label = (k: LogisticsKey) => LOGISTICS_COLUMNS[k][lang];
  const idx = headerIndex(sheet[0] ?? [], LOGISTICS_COLUMNS);
  for (const k of ['orderNo', 'shipmentNo', 'company', 'shipDate', 'status'] as const) {
    if (!idx.has(k)) errors.push({ row: 1, field: k, reason: reason(lang, 'missingColumn', { field: label(k) }) });
  }
  if (errors.length) return { rows: [], errors };
  const body = sheet
    .slice(1)
    .map((cells, i) => ({ cells, row: i + 2 }))
    .filter((r) => r.cells.some((c) => c !== ''));
  if (!body.length) return { rows: [], errors: [{ row: 2, field: '', reason: reason(lang, 'noRows') }] };
  if (body.length > UPLOAD_MAX_ROWS) return { rows: [], errors: [{ row: UPLOAD_MAX_ROWS + 2, field: '', reason: reason(lang, 'tooManyRows', { max: UPLOAD_MAX_ROWS }) }] };
  const get = (cells: string[], k: LogisticsKey) => (idx.has(k) ? (cells[idx.get(k)!] ?? '') : '');

  // Which merchants (in scope) hold each order number as a purchase.
  const orderNos = [...new Set(body.map((r) => get(r.cells, 'orderNo')).filter(Boolean))];
  const { rows: found } = await q.query<{ id: number; mer_id: string; order_no: string }>(
    `SELECT id, mer_id, order_no FROM txn WHERE order_no = ANY($1::text[]) AND mer_id = ANY($2::text[]) AND tran_type = 'PURC'`,
    [orderNos, scope],
  );
  const byOrder = new Map<string, { id: number; mer_id: string }[]>();
  for (const f of found) byOrder.set(f.order_no, [...(byOrder.get(f.order_no) ?? []), f]);

  const seen = new Map<string, number>();
  const rows: Parsed[] = [];
  for (const { cells, row } of body) {
    const bad = (field: string, why: string) => errors.push({ row, field, reason: why });
    const before = errors.length;
    const v = Object.fromEntries((Object.keys(LOGISTICS_COLUMNS) as LogisticsKey[]).map((k) => [k, get(cells, k)])) as Record<LogisticsKey, string>;
    for (const k of ['orderNo', 'shipmentNo', 'company', 'shipDate', 'status'] as const) {
      if (!v[k]) bad(k, reason(lang, 'required', { field: label(k) }));
    }
    for (const k of ['orderNo', 'shipmentNo', 'company'] as const) {
      if (v[k].length > 64) bad(k, reason(lang, 'tooLong', { field: label(k), max: 64 }));
    }
    if (v.shipDate && !validDate(v.shipDate)) bad('shipDate', reason(lang, 'badDate', { field: label('shipDate') }));
    const status = v.status ? statusKey(v.status) : undefined;
    if (v.status && !status) bad('status', reason(lang, 'badStatus', { list: LOGISTICS_STATUSES.join(', ') }));
    let match: { id: number; mer_id: string } | undefined;
    if (v.orderNo) {
      const cands = (byOrder.get(v.orderNo) ?? []).filter((c) => !v.merId || c.mer_id === v.merId);
      if (!cands.length) bad('orderNo', reason(lang, 'orderNotFound', { value: v.orderNo }));
      else if (cands.length > 1) bad('merId', reason(lang, 'orderAmbiguous', { value: v.orderNo }));
      else match = cands[0];
      const key = `${match?.mer_id ?? v.merId}|${v.orderNo}`;
      const first = seen.get(key);
      if (first) bad('orderNo', reason(lang, 'duplicate', { value: v.orderNo, row: first }));
      else seen.set(key, row);
    }
    if (errors.length === before && match && status) {
      rows.push({ row, merId: match.mer_id, orderNo: v.orderNo, txnId: match.id, shipmentNo: v.shipmentNo, company: v.company, shipDate: v.shipDate, status });
    }
  }
  return { rows, errors };
}

/** Validates, then writes every row in one transaction, or nothing at all when any row is bad. */
export async function importLogistics(deps: Deps, scope: string[], sheet: string[][], lang: Language): Promise<{ imported: number; errors: RowError[] }> {
  return deps.db.tx(async (q) => {
    const { rows, errors } = await validateLogistics(q, scope, sheet, lang);
    if (errors.length) return { imported: 0, errors };
    const col = <K extends keyof Parsed>(k: K) => rows.map((r) => r[k]);
    await q.query(
      `INSERT INTO logistics (mer_id, order_no, txn_id, shipment_no, company, ship_date, status)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $6::date[], $7::text[])
       ON CONFLICT (mer_id, order_no) DO UPDATE SET txn_id = EXCLUDED.txn_id, shipment_no = EXCLUDED.shipment_no, company = EXCLUDED.company,
         ship_date = EXCLUDED.ship_date, status = EXCLUDED.status, updated_at = now()`,
      [col('merId'), col('orderNo'), col('txnId'), col('shipmentNo'), col('company'), col('shipDate'), col('status')],
    );
    return { imported: rows.length, errors: [] };
  });
}

/** The import template: the header row in the user's language and one example row. */
export function logisticsTemplate(lang: Language): { header: string[]; example: string[] } {
  return {
    header: (Object.keys(LOGISTICS_COLUMNS) as LogisticsKey[]).map((k) => LOGISTICS_COLUMNS[k][lang]),
    example: ['ORDER-0001', '', 'SF1234567890', 'SF Express', '2026-01-31', 'SHIPPED'],
  };
}
