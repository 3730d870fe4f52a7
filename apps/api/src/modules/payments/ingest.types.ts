/** What a gateway-side writer hands to ingestion: one transaction, amounts in minor units. */
export interface IngestInput {
  merId: string;
  /** Merchant order number, unique per merchant. */
  orderNo: string;
  tranType: string;
  /** Minor units of `currency`, integer > 0. */
  amount: number;
  /** -1 for a negative manual entry (MANENTD only); 1 otherwise. */
  amountSign?: 1 | -1;
  currency: string;
  /** The channel (paymentSchema): UP, APP, AP, WX, CARD, PPRO_IDEAL … */
  paymentSchema: string;
  paymentBrand?: string | null;
  subBrandCode?: string | null;
  /** '00' success, '04' or null processing, anything else failed. */
  gwResponse: string | null;
  respMsg?: string | null;
  txnTime: Date;
  /** The purchase a REFD / VOID / DISPUTE refers to, by id … */
  originTxnId?: number | null;
  /** … or by its order number (same merchant). */
  originOrderNo?: string | null;
  channelOrderNo?: string | null;
  merReserve?: string | null;
  storeName?: string | null;
  storeId?: string | null;
  backUrl?: string | null;
  frontUrl?: string | null;
  /** Full PAN accepted (or already masked 123456******1234); only first six and last four are stored. */
  cardNumber?: string | null;
  orderAmount?: number | null;
  orderCurrency?: string | null;
  /** gateway (default), sandbox, paybylink, generator, manual. */
  source?: string;
  /** The gateway's own transaction id (provider feed, file import); absent: a fresh G… id. */
  gwTransId?: string | null;
}

export interface IngestOptions {
  /** The platform zone: the transaction date is the txnTime's date there. */
  platformTz: string;
  /** 16 hex characters for the gateway id; crypto-random unless a generator wants determinism. */
  randomHex?: () => string;
  /** The current time (tests, generators); rows dated before yesterday are checked for lateness. */
  now?: Date;
}

export interface Ingested {
  id: number;
  gwTransId: string;
}

/** One row's outcome of `ingestEach`: written, or refused with the reason (nothing written). */
export type IngestOutcome = { ok: true; id: number; gwTransId: string; row: TxnRow } | { ok: false; error: import('../../lib/errors').AppError };

/** A validated row, as stored (before origin resolution). */
export interface TxnRow {
  gw_trans_id: string;
  mer_id: string;
  order_no: string;
  origin_order_no: string | null;
  origin_txn_id: number | null;
  channel_order_no: string | null;
  tran_type: string;
  gw_response: string | null;
  resp_msg: string | null;
  amount: number;
  amount_sign: number;
  currency: string;
  order_amount: number;
  order_currency: string;
  payment_schema: string;
  bus_line: string;
  payment_brand: string | null;
  sub_brand_code: string | null;
  /** Epoch milliseconds. */
  txn_time: number;
  txn_date: string;
  mer_reserve: string | null;
  store_name: string | null;
  store_id: string | null;
  back_url: string | null;
  front_url: string | null;
  card_first6: string | null;
  card_last4: string | null;
  source: string;
}

/** Columns of `txn` ingestion writes, with their SQL types (the order of TxnRow). */
export const TXN_COLUMNS: readonly (readonly [keyof TxnRow, string])[] = [
  ['gw_trans_id', 'text'],
  ['mer_id', 'text'],
  ['order_no', 'text'],
  ['origin_order_no', 'text'],
  ['origin_txn_id', 'int8'],
  ['channel_order_no', 'text'],
  ['tran_type', 'text'],
  ['gw_response', 'text'],
  ['resp_msg', 'text'],
  ['amount', 'int8'],
  ['amount_sign', 'int2'],
  ['currency', 'text'],
  ['order_amount', 'int8'],
  ['order_currency', 'text'],
  ['payment_schema', 'text'],
  ['bus_line', 'text'],
  ['payment_brand', 'text'],
  ['sub_brand_code', 'text'],
  ['txn_time', 'float8'],
  ['txn_date', 'date'],
  ['mer_reserve', 'text'],
  ['store_name', 'text'],
  ['store_id', 'text'],
  ['back_url', 'text'],
  ['front_url', 'text'],
  ['card_first6', 'text'],
  ['card_last4', 'text'],
  ['source', 'text'],
];
