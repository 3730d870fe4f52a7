import { randomBytes } from 'node:crypto';
import { Code, CURRENCY_EXPONENT, TXN_TYPES, busLineOf, hasControlChars, isBrand } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { AppError } from '../../lib/errors';
import type { MessageKey } from '../../lib/messages';
import { compact, platformDate } from './time';
import type { IngestInput, IngestOptions, TxnRow } from './ingest.types';

const TYPES = new Set<string>(TXN_TYPES);
const ORDER_NO_RE = /^[\x21-\x7E]{1,64}$/;
const CHANNEL_RE = /^[A-Z][A-Z0-9_]{0,31}$/;
export const RESPONSE_RE = /^[0-9A-Za-z]{1,8}$/;
/** A gateway's own transaction id: printable ASCII without spaces, 1–64 characters. */
export const GW_TRANS_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
const MAX_LEN: Partial<Record<keyof IngestInput, number>> = {
  respMsg: 255,
  channelOrderNo: 64,
  merReserve: 255,
  storeName: 128,
  storeId: 64,
  backUrl: 512,
  frontUrl: 512,
  subBrandCode: 32,
};

/** A validation failure: code 400, the field named in `data`. */
export function invalid(key: MessageKey, params: Record<string, string | number> = {}, field?: string): AppError {
  return new AppError(Code.BAD_REQUEST, key, params, 400, field ? { field } : null);
}

const nz = (v: string | null | undefined) => (v === undefined || v === null || v === '' ? null : v);
const LIMITS = Object.entries(MAX_LEN) as [keyof IngestInput, number][];

// Crypto-random gateway-id suffixes, drawn from a pool (one system call per 512 ids, not per id).
let pool = Buffer.alloc(0);
let at = 0;
function randomHex(): string {
  if (at + 8 > pool.length) {
    pool = randomBytes(4096);
    at = 0;
  }
  at += 8;
  return pool.toString('hex', at - 8, at);
}

function maskCard(card: string | null | undefined): [string | null, string | null] {
  const c = nz(card?.replace(/[\s-]/g, ''));
  if (c === null) return [null, null];
  if (/^\d{12,19}$/.test(c) || /^\d{6}\*{2,9}\d{4}$/.test(c)) return [c.slice(0, 6), c.slice(-4)];
  throw invalid('payCardInvalid', {}, 'cardNumber');
}

/**
 * Checks everything that needs no database and builds the stored row: type, amount, currency,
 * channel, brand, order number, lengths; computes business line, transaction date (platform zone),
 * gateway id and the masked card. Throws an AppError naming the field.
 */
export function shapeRow(input: IngestInput, opts: IngestOptions): TxnRow {
  if (!TYPES.has(input.tranType)) throw invalid('payTranTypeInvalid', { tranType: String(input.tranType) }, 'tranType');
  if (typeof input.orderNo !== 'string' || !ORDER_NO_RE.test(input.orderNo)) throw invalid('payOrderNoInvalid', {}, 'orderNo');
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    throw invalid('payAmountInvalid', { max: Number.MAX_SAFE_INTEGER }, 'amount');
  }
  const sign = input.amountSign ?? 1;
  if (sign !== 1 && sign !== -1) throw invalid('payAmountSignInvalid', {}, 'amountSign');
  if (sign === -1 && input.tranType !== 'MANENTD') throw invalid('payAmountSignInvalid', {}, 'amountSign');
  if (!(input.currency in CURRENCY_EXPONENT)) throw invalid('payCurrencyUnknown', { currency: String(input.currency) }, 'currency');
  const orderCurrency = input.orderCurrency ?? input.currency;
  if (!(orderCurrency in CURRENCY_EXPONENT)) throw invalid('payCurrencyUnknown', { currency: String(orderCurrency) }, 'orderCurrency');
  const orderAmount = input.orderAmount ?? input.amount;
  if (!Number.isSafeInteger(orderAmount) || orderAmount <= 0) throw invalid('payAmountInvalid', { max: Number.MAX_SAFE_INTEGER }, 'orderAmount');
  if (typeof input.paymentSchema !== 'string' || !CHANNEL_RE.test(input.paymentSchema)) {
    throw invalid('payChannelInvalid', { channel: String(input.paymentSchema) }, 'paymentSchema');
  }
  const brand = nz(input.paymentBrand);
  if (brand !== null && !isBrand(brand)) throw invalid('payBrandUnknown', { brand }, 'paymentBrand');
  const gw = nz(input.gwResponse);
  if (gw !== null && !RESPONSE_RE.test(gw)) throw invalid('payResponseInvalid', { gwResponse: gw }, 'gwResponse');
  if (!(input.txnTime instanceof Date) || Number.isNaN(input.txnTime.getTime())) throw invalid('payTimeInvalid', {}, 'txnTime');
  const originNo = nz(input.originOrderNo);
  if (originNo !== null && !ORDER_NO_RE.test(originNo)) throw invalid('payOrderNoInvalid', {}, 'originOrderNo');
  const originId = input.originTxnId ?? null;
  if (originId !== null && (!Number.isSafeInteger(originId) || originId <= 0)) {
    throw invalid('payOriginNotFound', { origin: String(originId), merId: input.merId }, 'originTxnId');
  }
  for (const [field, max] of LIMITS) {
    const v = input[field];
    // Issue 47: a NUL (or another control, or a lone surrogate) never reaches the database.
    if (typeof v === 'string' && hasControlChars(v)) throw invalid('gwFieldControlChars', { field }, field);
    if (typeof v === 'string' && v.length > max) throw invalid('payFieldTooLong', { field, max }, field);
  }
  if (typeof input.merId !== 'string' || !/^\d{15}$/.test(input.merId)) throw invalid('payMerchantNotFound', { merId: String(input.merId) }, 'merId');
  const ownId = nz(input.gwTransId);
  if (ownId !== null && !GW_TRANS_ID_RE.test(ownId)) throw invalid('payGwTransIdInvalid', {}, 'gwTransId');
  const [first6, last4] = maskCard(input.cardNumber);
  const ms = input.txnTime.getTime();
  const txnDate = platformDate(ms, opts.platformTz);
  return {
    gw_trans_id: ownId ?? `G${compact(txnDate)}${(opts.randomHex ?? randomHex)()}`,
    mer_id: input.merId,
    order_no: input.orderNo,
    origin_order_no: originNo,
    origin_txn_id: originId,
    channel_order_no: nz(input.channelOrderNo),
    tran_type: input.tranType,
    gw_response: gw,
    resp_msg: nz(input.respMsg),
    amount: input.amount,
    amount_sign: sign,
    currency: input.currency,
    order_amount: orderAmount,
    order_currency: orderCurrency,
    payment_schema: input.paymentSchema,
    bus_line: busLineOf(input.paymentSchema),
    payment_brand: brand,
    sub_brand_code: nz(input.subBrandCode),
    txn_time: ms,
    txn_date: txnDate,
    mer_reserve: nz(input.merReserve),
    store_name: nz(input.storeName),
    store_id: nz(input.storeId),
    back_url: nz(input.backUrl),
    front_url: nz(input.frontUrl),
    card_first6: first6,
    card_last4: last4,
    source: input.source ?? 'gateway',
  };
}

export interface MerchantRules {
  mer_id: string;
  enabled: boolean;
  locked: boolean;
  channels: string[];
  currencies: string[];
}

export async function loadMerchants(q: Queryable, ids: string[]): Promise<Map<string, MerchantRules>> {
  const { rows } = await q.query<MerchantRules>('SELECT mer_id, enabled, locked, channels, currencies FROM merchant WHERE mer_id = ANY($1::text[])', [ids]);
  return new Map(rows.map((m) => [m.mer_id, { ...m, currencies: m.currencies.map((c) => c.trim()) }]));
}

/** Merchant exists and takes transactions, channel enabled for it, currency allowed for it. */
export function checkMerchant(row: TxnRow, m: MerchantRules | undefined): void {
  if (!m) throw invalid('payMerchantNotFound', { merId: row.mer_id }, 'merId');
  if (!m.enabled || m.locked) throw invalid('payMerchantDisabled', { merId: row.mer_id }, 'merId');
  if (!m.channels.includes(row.payment_schema)) throw invalid('payChannelNotEnabled', { channel: row.payment_schema }, 'paymentSchema');
  // Issue 48: a dispute fee is in the settlement currency (the disputes module checks it is the merchant's).
  if (row.tran_type !== 'DISPUTE_FEE' && !m.currencies.includes(row.currency)) throw invalid('payCurrencyNotAllowed', { currency: row.currency, merId: row.mer_id }, 'currency');
}

/** The original transaction a REFD / VOID / DISPUTE points at, as ingestion needs it. */
export interface OriginRow {
  id: number;
  mer_id: string;
  order_no: string;
  tran_type: string;
  gw_response: string | null;
  currency: string;
  amount: number;
  return_amount: number;
  payment_schema: string;
  txn_date: string;
  settle_flag: string;
}
export const ORIGIN_COLUMNS = 'id, mer_id, order_no, tran_type, gw_response, currency, amount, return_amount, payment_schema, txn_date, settle_flag';

/** REFD and VOID must name a successful purchase of the same merchant, currency and channel. */
export function checkOrigin(row: TxnRow, o: OriginRow | undefined): void {
  const needs = row.tran_type === 'REFD' || row.tran_type === 'VOID';
  const given = row.origin_txn_id !== null || row.origin_order_no !== null;
  if (!given) {
    if (needs) throw invalid('payOriginRequired', { tranType: row.tran_type }, 'originOrderNo');
    return;
  }
  if (!o || o.mer_id !== row.mer_id) {
    throw invalid('payOriginNotFound', { origin: String(row.origin_txn_id ?? row.origin_order_no), merId: row.mer_id }, 'originOrderNo');
  }
  row.origin_txn_id = o.id;
  row.origin_order_no = o.order_no;
  if (!needs && row.tran_type !== 'DISPUTE') return;
  const why = (reason: string) => invalid('payOriginMismatch', { reason }, 'originOrderNo');
  if (o.tran_type !== 'PURC') throw why(`type ${o.tran_type}`);
  if (o.gw_response !== '00') throw why(`result ${o.gw_response ?? 'processing'}`);
  if (o.currency.trim() !== row.currency) throw why(`currency ${o.currency.trim()}`);
  if (needs && o.payment_schema !== row.payment_schema) throw why(`channel ${o.payment_schema}`);
  if (row.amount > o.amount) throw invalid('payRefundExceeds', {}, 'amount');
  if (row.tran_type === 'VOID') {
    const v = (reason: string) => invalid('payVoidNotAllowed', { reason }, 'originOrderNo');
    if (o.txn_date !== row.txn_date) throw v(`purchase date ${o.txn_date}`);
    if (row.amount !== o.amount) throw v('amount differs');
    if (o.settle_flag !== 'N') throw v('settled');
    if (o.return_amount > 0) throw v('refunded');
  }
}

/** Maps a unique violation on (mer_id, order_no) to the clear error; other errors pass. */
export function mapDbError(err: unknown, fallback?: { merId: string; orderNo: string }): unknown {
  const e = err as { code?: string; detail?: string; constraint?: string; message?: string };
  if (e?.code === '23505' && /order_no/.test(`${e.constraint ?? ''} ${e.detail ?? ''} ${e.message ?? ''}`)) {
    const m = /=\(([^,]+), (.+)\) already exists/.exec(e.detail ?? '');
    return new AppError(Code.CONFLICT, 'payOrderNoDuplicate', { merId: m?.[1] ?? fallback?.merId ?? '', orderNo: m?.[2] ?? fallback?.orderNo ?? '' }, 409, {
      field: 'orderNo',
    });
  }
  return err;
}
