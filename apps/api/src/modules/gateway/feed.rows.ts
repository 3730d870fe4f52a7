/** A feed row as a gateway sends it: its schema, its check and its shape for ingestion, and the answer per row. */
import { z } from 'zod';
import { Code, CURRENCY_EXPONENT, hasControlChars, toMinor } from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { Language } from '@portal/contract';
import type { IngestInput } from '../payments';
import { isDate, platformDate, zonedInstant } from '../../lib/zone';

const str = (max: number) => z.string().max(max);
const opt = (max: number) => z.string().max(max).nullish();

/**
 * One transaction as a gateway reports it (the spec's field names; amounts as decimal strings of
 * the currency, `currentTime` ISO 8601 with an offset or `YYYY-MM-DD HH:mm:ss` in the platform zone).
 */
export const FeedRowSchema = z.strictObject({
  gwGTransId: str(64),
  clientid: str(15),
  orderNum: str(64),
  originorderno: opt(64),
  gwTranType: str(16),
  gwResponse: opt(8),
  respMsg: opt(255),
  gwAmount: str(32),
  gwCurrency: str(3),
  orderAmount: opt(32),
  orderCurrency: opt(3),
  paymentSchema: str(32),
  paymentBrand: opt(32),
  subBrandCode: opt(32),
  currentTime: str(40),
  channelOrderNo: opt(64),
  merReserve: opt(255),
  storeId: opt(64),
  storeName: opt(128),
  cardNumber: opt(32),
});
export type FeedRow = z.infer<typeof FeedRowSchema>;

export type RowStatus = 'accepted' | 'duplicate' | 'rejected';
export interface RowResult {
  index: number;
  gwGTransId: string | null;
  status: RowStatus;
  /** 0 accepted / duplicate; 400 invalid, 403 merchant not allowed, 409 conflict. */
  code: number;
  msg: string;
  field?: string;
  /** A processing transaction this row made final. */
  statusChanged?: boolean;
}

export interface FeedOptions {
  platformTz: string;
  now?: Date;
  /** The accepted currentTime window around `now` (PROVIDER_FEED_DAYS_BACK / _AHEAD; default 400 / 2). */
  window?: FeedWindow;
  lang?: Language;
  /** gateway (API) or file (import). */
  source?: string;
}

export interface FeedWindow {
  daysBack: number;
  daysAhead: number;
}
const DEFAULT_FEED_WINDOW: FeedWindow = { daysBack: 400, daysAhead: 2 };

const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2})$/;

export function rowError(field: string, detail: string) {
  return new AppError(Code.BAD_REQUEST, 'gwRowInvalid', { field, detail }, 400, { field });
}

/** A wire row → ingestion input (amounts to minor units, time to an instant). Throws an AppError naming the field. */
export function toIngestInput(raw: unknown, o: FeedOptions): IngestInput {
  // Issue 47: every text field strictly — a NUL byte, a C0/C1 control or a lone surrogate refuses
  // the row (named field), before anything reaches the database.
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [field, v] of Object.entries(raw)) {
      if (typeof v === 'string' && hasControlChars(v)) throw new AppError(Code.BAD_REQUEST, 'gwFieldControlChars', { field }, 400, { field });
    }
  }
  const p = FeedRowSchema.safeParse(raw);
  if (!p.success) {
    const i = p.error.issues[0];
    throw rowError(i.path.join('.') || 'row', i.message);
  }
  const r = p.data;
  const cur = r.gwCurrency;
  if (!(cur in CURRENCY_EXPONENT)) throw new AppError(Code.BAD_REQUEST, 'payCurrencyUnknown', { currency: cur }, 400, { field: 'gwCurrency' });
  const minor = (v: string, c: string, field: string) => {
    try {
      return toMinor(v, c);
    } catch (e) {
      throw rowError(field, (e as Error).message);
    }
  };
  const amount = minor(r.gwAmount, cur, 'gwAmount');
  const oc = r.orderCurrency || cur;
  if (!(oc in CURRENCY_EXPONENT)) throw new AppError(Code.BAD_REQUEST, 'payCurrencyUnknown', { currency: oc }, 400, { field: 'orderCurrency' });
  let txnTime: Date;
  const local = LOCAL_TIME.exec(r.currentTime);
  const dateOk = isDate(r.currentTime.slice(0, 10)) && Number(r.currentTime.slice(11, 13)) < 24 && Number(r.currentTime.slice(14, 16)) < 60 && Number(r.currentTime.slice(17, 19)) < 60;
  if (!dateOk) throw rowError('currentTime', 'not a real time (ISO 8601 with an offset, or YYYY-MM-DD HH:mm:ss in the platform zone)');
  if (local) txnTime = zonedInstant(local[1], o.platformTz, Number(local[2]) * 60 + Number(local[3]));
  else if (ISO_TIME.test(r.currentTime)) txnTime = new Date(r.currentTime);
  else throw rowError('currentTime', 'ISO 8601 with an offset, or YYYY-MM-DD HH:mm:ss (platform zone)');
  if (local) txnTime = new Date(txnTime.getTime() + Number(local[4]) * 1000);
  if (Number.isNaN(txnTime.getTime())) throw rowError('currentTime', 'not a real time');
  // Issue 47: only times around the portal's clock (any year 1900–2999 made the ledger a month).
  const w = o.window ?? DEFAULT_FEED_WINDOW;
  const now = (o.now ?? new Date()).getTime();
  const from = now - w.daysBack * 86_400_000;
  const to = now + w.daysAhead * 86_400_000;
  if (txnTime.getTime() < from || txnTime.getTime() > to) {
    const day = (ms: number) => platformDate(ms, o.platformTz);
    throw new AppError(Code.BAD_REQUEST, 'gwTimeOutsideWindow', { from: day(from), to: day(to), back: w.daysBack, ahead: w.daysAhead }, 400, { field: 'currentTime' });
  }
  return {
    gwTransId: r.gwGTransId,
    merId: r.clientid,
    orderNo: r.orderNum,
    originOrderNo: r.originorderno ?? null,
    tranType: r.gwTranType,
    gwResponse: r.gwResponse ?? null,
    respMsg: r.respMsg ?? null,
    amount: Math.abs(amount),
    amountSign: amount < 0 ? -1 : 1,
    currency: cur,
    orderAmount: r.orderAmount ? Math.abs(minor(r.orderAmount, oc, 'orderAmount')) : null,
    orderCurrency: r.orderCurrency ?? null,
    paymentSchema: r.paymentSchema,
    paymentBrand: r.paymentBrand ?? null,
    subBrandCode: r.subBrandCode ?? null,
    txnTime,
    channelOrderNo: r.channelOrderNo ?? null,
    merReserve: r.merReserve ?? null,
    storeId: r.storeId ?? null,
    storeName: r.storeName ?? null,
    cardNumber: r.cardNumber ?? null,
    source: o.source ?? 'gateway',
  };
}

export interface BatchAnswer {
  results: RowResult[];
  accepted: number;
  duplicate: number;
  rejected: number;
}

export function tally(results: RowResult[]) {
  const c = { accepted: 0, duplicate: 0, rejected: 0 };
  for (const r of results) if (r) c[r.status]++;
  return c;
}

export const fieldOf = (e: AppError) => (e.data as { field?: string } | null)?.field;
