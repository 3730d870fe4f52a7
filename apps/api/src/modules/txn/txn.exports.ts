import { MAX_RANGE_DAYS, Perm, brandName, resultStateOf, settleFilterSchema, txnFilterSchema, type TxnFilter } from '@portal/contract';
import type { ExportColumn, ExportContext, ExportSource } from '../export';
import { registerExportSource } from '../export';
import { COLUMN_LABELS as C, FILE_TITLES, RESULT_LABELS, SETTLE_LABELS, typeLabel } from './txn.labels';
import { countTxn } from './txn.count';
import { iterateTxn, txnWhere } from './txn.repo';
import { money, type TxnDbRow } from './txn.row';
import { iterateSettle, settleWhere, sumSettle, type SettleFilter } from './settle.repo';
import { checkRange } from './txn.service';
import { daysBetween } from './time';
import { settleStateOf } from '@portal/contract';
import { csvCopy } from '../export';
import { inlineParams } from '../../db/sql-inline';
import { settleColumnSql, txnColumnSql } from './txn.copy';
import { invalidInput, rangeRequired, rangeTooLong, reversedRange } from '../../lib/validation';

/** The list's columns, labels and values in the user's language. */
function txnColumns(ctx: ExportContext): ExportColumn<TxnDbRow>[] {
  const { lang } = ctx;
  return [
    { key: 'orderNo', label: C.orderNo[lang], type: 'text', width: 26, value: (r) => r.order_no },
    { key: 'txnTime', label: C.txnTime[lang], type: 'time', value: (r) => r.txn_time },
    { key: 'result', label: C.result[lang], type: 'text', width: 12, value: (r) => RESULT_LABELS[resultStateOf(r.gw_response)][lang] },
    { key: 'merId', label: C.merId[lang], type: 'text', width: 17, value: (r) => r.mer_id },
    { key: 'merName', label: C.merName[lang], type: 'text', width: 24, value: (r) => r.mer_name },
    { key: 'originOrderNo', label: C.originOrderNo[lang], type: 'text', width: 26, value: (r) => r.origin_order_no },
    { key: 'type', label: C.type[lang], type: 'text', width: 14, value: (r) => typeLabel(r.tran_type, lang) },
    { key: 'amount', label: C.amount[lang], type: 'money', width: 14, value: (r) => money(r.tran_type === 'MANENTD' ? r.amount * r.amount_sign : r.amount, r.currency) },
    { key: 'currency', label: C.currency[lang], type: 'text', width: 9, value: (r) => r.currency },
    { key: 'returnAmount', label: C.returnAmount[lang], type: 'money', width: 14, value: (r) => money(r.return_amount, r.currency) },
    { key: 'brand', label: C.brand[lang], type: 'text', width: 16, value: (r) => brandName(r.payment_brand) },
    { key: 'channel', label: C.channel[lang], type: 'text', width: 12, value: (r) => r.payment_schema },
    {
      key: 'settleFlag',
      label: C.settleFlag[lang],
      type: 'text',
      width: 16,
      value: (r) => {
        const s = settleStateOf(r.settle_flag, r.gw_response);
        return s ? SETTLE_LABELS[s][lang] : '';
      },
    },
  ];
}

/** The export period rule of spec §5: neither end more than three months before the end date. */
export function parseTxnExportParams(params: unknown): TxnFilter {
  const p = txnFilterSchema.safeParse(params);
  if (!p.success) throw invalidInput(p.error);
  checkRange(p.data.beginDate, p.data.endDate);
  if (!p.data.beginDate || !p.data.endDate) throw rangeRequired();
  if (daysBetween(p.data.beginDate, p.data.endDate) > MAX_RANGE_DAYS) throw rangeTooLong();
  return p.data;
}

export const txnExportSource: ExportSource<TxnFilter, TxnDbRow> = {
  permission: Perm.txnExport,
  parse: parseTxnExportParams,
  fileName: (ctx) => FILE_TITLES.txn[ctx.lang],
  columns: txnColumns,
  rows: (ctx, p) => iterateTxn(ctx.read, txnWhere(p, ctx.scope, ctx.deps.config.platformTz), ctx.scope),
  count: (ctx, p) => countTxn(ctx.read, txnWhere(p, ctx.scope, ctx.deps.config.platformTz)),
  // The same rows, cells and order as `rows` + `columns`, for COPY (the filter's values inlined).
  // The keys (time, id) are unique and NOT NULL; the boundary query needs no merchant join (a NOT
  // NULL foreign key: the join neither adds nor drops a row).
  copyCsv: (ctx, p) => {
    const w = txnWhere(p, ctx.scope, ctx.deps.config.platformTz);
    return csvCopy(txnColumns(ctx), ctx.zone, txnColumnSql(ctx.lang), {
      from: 'FROM txn t JOIN merchant m ON m.mer_id = t.mer_id',
      keyFrom: 'FROM txn t',
      where: inlineParams(w.sql, w.params),
      keys: [
        { sql: 't.txn_time', type: 'timestamptz' },
        { sql: 't.id', type: 'int8' },
      ],
      direction: 'desc',
    });
  },
};

export const settleExportSource: ExportSource<SettleFilter, TxnDbRow> = {
  permission: [Perm.settleList, Perm.txnExport],
  parse: (params) => {
    const p = settleFilterSchema.safeParse(params);
    if (!p.success) throw invalidInput(p.error);
    if (p.data.beginDate > p.data.endDate) throw reversedRange();
    return p.data;
  },
  fileName: (ctx, p) => `${FILE_TITLES.settle[ctx.lang]}_${p.clientid}_${p.busLine}_${p.setCur}`,
  columns: (ctx) => {
    const { lang } = ctx;
    return [
      ...txnColumns(ctx).filter((c) => c.key !== 'returnAmount'),
      { key: 'settleDate', label: C.settleDate[lang], type: 'date', width: 12, value: (r) => r.settle_date },
      { key: 'settleCurrency', label: C.settleCurrency[lang], type: 'text', width: 9, value: (r) => r.settle_currency },
      { key: 'settleAmount', label: C.settleAmount[lang], type: 'money', width: 14, value: (r) => money(r.settle_amount, r.settle_currency) },
      { key: 'settleFee', label: C.settleFee[lang], type: 'money', width: 12, value: (r) => money(r.settle_fee, r.settle_currency) },
      { key: 'settleNet', label: C.settleNet[lang], type: 'money', width: 14, value: (r) => money((r.settle_amount ?? 0) - (r.settle_fee ?? 0), r.settle_currency) },
    ];
  },
  rows: (ctx, p) => iterateSettle(ctx.read, settleWhere(p, ctx.scope), ctx.scope),
  count: async (ctx, p) => (await sumSettle(ctx.read, settleWhere(p, ctx.scope))).n,
  // settle_date is NOT NULL in every row settleWhere selects.
  copyCsv: (ctx, p) => {
    const w = settleWhere(p, ctx.scope);
    return csvCopy(settleExportSource.columns(ctx, p), ctx.zone, settleColumnSql(ctx.lang), {
      from: 'FROM txn t JOIN merchant m ON m.mer_id = t.mer_id',
      keyFrom: 'FROM txn t',
      where: inlineParams(w.sql, w.params),
      keys: [
        { sql: 't.settle_date', type: 'date' },
        { sql: 't.txn_time', type: 'timestamptz' },
        { sql: 't.id', type: 'int8' },
      ],
      direction: 'asc',
    });
  },
};

let registered = false;
/** Plugs the transaction row sources into the export queue (once per process). */
export function registerTxnExports(): void {
  if (registered) return;
  registered = true;
  registerExportSource('txn', txnExportSource);
  registerExportSource('settle', settleExportSource);
}
