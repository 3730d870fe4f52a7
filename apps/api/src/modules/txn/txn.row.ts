import { CURRENCY_EXPONENT, settleStateOf, toDecimal, type TxnRow } from '@portal/contract';
import type { TxnRow as StoredTxnRow } from '../payments';
import { formatInZone, type Zone } from './time';

/*
 * A ledger row as the queries read it (ROW_COLUMNS, or the list's LIST_COLUMNS) and as the wire
 * shows it (toTxnRow). The queries themselves: txn.repo.ts.
 */

/** Columns of txn (t) and merchant (m) a row needs. */
export const ROW_COLUMNS = `t.id, t.gw_trans_id, t.mer_id, m.name AS mer_name, t.order_no, t.origin_order_no, t.origin_txn_id,
  t.channel_order_no, t.tran_type, t.gw_response, t.resp_msg, t.amount, t.amount_sign, t.currency, t.order_amount, t.order_currency,
  t.return_amount, t.payment_schema, t.bus_line, t.payment_brand, t.txn_time, t.settle_flag, t.settle_date, t.settle_currency,
  t.settle_amount, t.settle_fee, t.mer_reserve`;

/**
 * What a list row shows (toTxnRow), as one JSON array per row: the driver then decodes one text
 * per row instead of one per column, and reads a two-column description (decision 054; node-postgres
 * decodes and describes every column of every result, ~25 % of the list's CPU with 18 columns). The
 * time comes as epoch milliseconds (float8: exact to well under a microsecond at these magnitudes),
 * so no date text is formatted or parsed. LIST_FIELDS gives the order of both.
 */
const LIST_FIELDS = [
  ['id', 't.id'],
  ['mer_id', 't.mer_id'],
  ['mer_name', 'm.name'],
  ['order_no', 't.order_no'],
  ['origin_order_no', 't.origin_order_no'],
  ['tran_type', 't.tran_type'],
  ['gw_response', 't.gw_response'],
  ['resp_msg', 't.resp_msg'],
  ['amount', 't.amount'],
  ['amount_sign', 't.amount_sign'],
  ['currency', 't.currency'],
  ['order_amount', 't.order_amount'],
  ['order_currency', 't.order_currency'],
  ['return_amount', 't.return_amount'],
  ['payment_schema', 't.payment_schema'],
  ['payment_brand', 't.payment_brand'],
  ['txn_time', "date_part('epoch', t.txn_time) * 1000"],
  ['settle_flag', 't.settle_flag'],
] as const satisfies readonly (readonly [keyof ListDbRow, string])[];

export const LIST_COLUMNS = `json_build_array(${LIST_FIELDS.map(([, sql]) => sql).join(', ')}) AS r`;

/** A row of LIST_COLUMNS (the driver has parsed its JSON) → the ledger fields toTxnRow reads. */
export function listRow({ r }: { r: unknown[] }): ListDbRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < LIST_FIELDS.length; i++) row[LIST_FIELDS[i][0]] = r[i];
  return row as unknown as ListDbRow;
}

/** The ledger columns the list and export queries read: the stored row (ingest.types) plus joins and settlement. */
export interface TxnDbRow
  extends Pick<
    StoredTxnRow,
    | 'gw_trans_id'
    | 'mer_id'
    | 'order_no'
    | 'origin_order_no'
    | 'origin_txn_id'
    | 'channel_order_no'
    | 'tran_type'
    | 'gw_response'
    | 'resp_msg'
    | 'amount'
    | 'amount_sign'
    | 'currency'
    | 'order_amount'
    | 'order_currency'
    | 'payment_schema'
    | 'bus_line'
    | 'payment_brand'
    | 'mer_reserve'
  > {
  id: number;
  mer_name: string;
  return_amount: number;
  /** A Date from the list queries; epoch milliseconds from the export walk. */
  txn_time: Date | number;
  /** The exact timestamptz text (export walk only: the keyset). */
  txn_ts?: string;
  settle_flag: string;
  settle_date: string | null;
  settle_currency: string | null;
  settle_amount: number | null;
  settle_fee: number | null;
}

/** A row of LIST_COLUMNS: what toTxnRow reads. */
export type ListDbRow = Pick<
  TxnDbRow,
  | 'id'
  | 'mer_id'
  | 'mer_name'
  | 'order_no'
  | 'origin_order_no'
  | 'tran_type'
  | 'gw_response'
  | 'resp_msg'
  | 'amount'
  | 'amount_sign'
  | 'currency'
  | 'order_amount'
  | 'order_currency'
  | 'return_amount'
  | 'payment_schema'
  | 'payment_brand'
  | 'txn_time'
  | 'settle_flag'
>;

const POW10 = [1, 10, 100, 1000, 10000];
/** Minor units → decimal string in the currency's exponent (integer arithmetic, no float, no BigInt on the hot path). */
export function money(minor: number | null | undefined, cur: string | null | undefined): string {
  if (minor === null || minor === undefined || !cur) return '0';
  const c = cur.length === 3 ? cur : cur.trim();
  const e = CURRENCY_EXPONENT[c];
  if (e === undefined || !Number.isSafeInteger(minor)) return toDecimal(minor, c);
  if (e === 0) return String(minor);
  const abs = Math.abs(minor);
  const p = POW10[e];
  const frac = String(abs % p).padStart(e, '0');
  return `${minor < 0 ? '-' : ''}${Math.floor(abs / p)}.${frac}`;
}

/** Milliseconds of a timestamptz rendered as text by the server ('2026-11-21 10:48:28.532+00'). */
export function pgTimestampMs(s: string): number {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?([+-]\d\d)(?::?(\d\d))?$/.exec(s);
  if (!m) return Date.parse(s);
  const ms = m[7] ? Number((m[7] + '00').slice(0, 3)) : 0;
  const off = (Number(m[8]) * 60 + Math.sign(Number(m[8]) || 1) * Number(m[9] ?? 0)) * 60_000;
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], ms) - off;
}

/** DB row → the spec's transaction row; times in `zone` (the wire: the platform zone). */
export function toTxnRow(r: ListDbRow, zone: Zone): TxnRow {
  return {
    id: r.id,
    mrequest: {
      orderno: r.order_no,
      originorderno: r.origin_order_no,
      orderCurrency: r.order_currency,
      orderAmount: money(r.order_amount, r.order_currency),
    },
    currentTime: formatInZone(r.txn_time, zone),
    gwResponse: r.gw_response,
    respMsg: r.resp_msg,
    merId: r.mer_id,
    merName: r.mer_name,
    gwTranType: r.tran_type,
    gwAmount: money(r.amount * (r.tran_type === 'MANENTD' ? r.amount_sign : 1), r.currency),
    gwCurrency: r.currency,
    returnAmount: money(r.return_amount, r.currency),
    paymentBrand: r.payment_brand,
    paymentSchema: r.payment_schema,
    settleFlag: r.settle_flag,
    settleState: settleStateOf(r.settle_flag, r.gw_response),
  };
}
