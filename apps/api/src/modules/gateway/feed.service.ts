import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { Code, CURRENCY_EXPONENT, hasControlChars, toMinor } from '@portal/contract';
import type { Db, Queryable } from '../../db/db';
import { audit } from '../../lib/audit';
import { metrics } from '../../plugins/metrics';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/messages';
import type { Language } from '@portal/contract';
import { ingestEach, type IngestInput, type TxnRow } from '../payments';
import { shapeRow } from '../payments';
import { isProcessing } from '../payments';
import { finishProcessing } from '../acquirer';
import { compact } from '../payments';
import { isDate, platformDate, zonedInstant } from '../../lib/zone';
import type { Connection } from './gateway.service';

/** Most rows in one `POST /provider/v1/transactions`. */
export const MAX_BATCH = 1000;

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

function rowError(field: string, detail: string) {
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

/** The ledger's copy of a transaction, as compared with a repeat. */
interface LedgerRow
  extends Pick<
    TxnRow,
    | 'gw_trans_id'
    | 'mer_id'
    | 'order_no'
    | 'origin_order_no'
    | 'tran_type'
    | 'gw_response'
    | 'amount'
    | 'amount_sign'
    | 'currency'
    | 'order_amount'
    | 'order_currency'
    | 'payment_schema'
    | 'payment_brand'
    | 'card_first6'
    | 'card_last4'
    | 'channel_order_no'
  > {
  id: number;
  /** As read (a Date); the stored row's is epoch milliseconds. */
  txn_time: Date;
}
const LEDGER_COLS =
  't.id, t.gw_trans_id, t.mer_id, t.order_no, t.origin_order_no, t.tran_type, t.gw_response, t.amount, t.amount_sign, t.currency, t.order_amount, t.order_currency, t.payment_schema, t.payment_brand, t.txn_time, t.card_first6, t.card_last4, t.channel_order_no';

/**
 * The first field where a repeat differs from what was received (status aside), or null. A row the
 * portal wrote for an operation it asked of the gateway (a refund, a void, a charge:
 * `acquirer_operation`) is compared on what the operation fixed — merchant, order, type, money —
 * and not on the gateway's own time, card form or channel order number, which the portal's row
 * could only guess.
 */
function differs(r: TxnRow, l: Pick<LedgerRow, Exclude<keyof LedgerRow, 'id' | 'gw_trans_id' | 'gw_response'>>, portalOperation = false): string | null {
  const pairs: [string, unknown, unknown][] = [
    ['clientid', r.mer_id, l.mer_id],
    ['orderNum', r.order_no, l.order_no],
    ['gwTranType', r.tran_type, l.tran_type],
    ['gwAmount', r.amount * r.amount_sign, Number(l.amount) * Number(l.amount_sign)],
    ['gwCurrency', r.currency, l.currency.trim()],
    ['orderAmount', r.order_amount, Number(l.order_amount)],
    ['orderCurrency', r.order_currency, l.order_currency.trim()],
    ['paymentSchema', r.payment_schema, l.payment_schema],
    ['paymentBrand', r.payment_brand, l.payment_brand],
    ['currentTime', r.txn_time, new Date(l.txn_time).getTime()],
    ['cardNumber', `${r.card_first6}|${r.card_last4}`, `${l.card_first6}|${l.card_last4}`],
    ['channelOrderNo', r.channel_order_no, l.channel_order_no],
  ];
  if (r.origin_order_no !== null) pairs.push(['originorderno', r.origin_order_no, l.origin_order_no]);
  const gatewayOwn = new Set(['currentTime', 'cardNumber', 'channelOrderNo']);
  const d = pairs.find(([f, a, b]) => a !== b && !(portalOperation && gatewayOwn.has(f)));
  return d ? d[0] : null;
}

/**
 * A batch from a gateway connection (issue 25 §1): each row answered accepted / duplicate /
 * rejected with its reason, in order; one bad row never loses the others. All in one database
 * transaction:
 *  1. each row parsed and shaped (no database), and checked against the connection's merchants;
 *  2. the gateway ids claimed in `gateway_txn` with one unique insert (sorted, so two batches
 *     cannot deadlock): a second identical batch running in parallel waits for the first and then
 *     finds every id taken — answered as duplicates, never written twice;
 *  3. ids already in the ledger compared with it: same content → duplicate (a processing row the
 *     repeat reports final is made final by `finishProcessing`), other content → 409 for that row;
 *  4. the new rows written by the one ingestion path (`ingestEach`), a refund's amount reserved on
 *     its purchase first (processing or successful), late days queued for the late path.
 */
export async function receiveBatch(db: Db, conn: Connection, rawRows: unknown[], o: FeedOptions): Promise<BatchAnswer> {
  const answer = await db.tx((q) => receiveRows(q, conn, rawRows, o));
  countRows(answer, o.source ?? 'gateway');
  return answer;
}

/**
 * /metrics (`portal_ingested_rows_total`, issue 46): every row of a committed batch or chunk —
 * accepted as `ok` (a new row; a status made final by a repeat is not a new row), rejected as
 * `rejected` whatever refused it (shape, merchant, conflict, ingestion); duplicates are not counted.
 * Counted after the commit, so a batch that failed counts nothing.
 */
export function countRows(answer: Pick<BatchAnswer, 'results'>, source: string, unreadable = 0): void {
  let ok = 0;
  let rejected = unreadable;
  for (const r of answer.results) {
    if (r?.status === 'rejected') rejected++;
    else if (r?.status === 'accepted' && !r.statusChanged) ok++;
  }
  if (ok) metrics.ingestedRows.inc({ source, result: 'ok' }, ok);
  if (rejected) metrics.ingestedRows.inc({ source, result: 'rejected' }, rejected);
}

export interface BatchAnswer {
  results: RowResult[];
  accepted: number;
  duplicate: number;
  rejected: number;
}

/** `receiveBatch` inside the caller's transaction (the file import commits a chunk with its progress). */
export async function receiveRows(q: Queryable, conn: Connection, rawRows: unknown[], o: FeedOptions): Promise<BatchAnswer> {
  const lang = o.lang ?? 'en';
  const results: RowResult[] = new Array(rawRows.length);
  const idOf = (raw: unknown) => {
    const v = (raw as { gwGTransId?: unknown } | null)?.gwGTransId;
    return typeof v === 'string' ? v : null;
  };
  const reject = (i: number, e: AppError) => {
    results[i] = { index: i, gwGTransId: idOf(rawRows[i]), status: 'rejected', code: e.code, msg: t(lang, e.key, e.params), ...(fieldOf(e) ? { field: fieldOf(e) } : {}) };
  };
  const ok = (i: number, status: RowStatus, extra: Partial<RowResult> = {}) => {
    results[i] = { index: i, gwGTransId: idOf(rawRows[i]), status, code: 0, msg: t(lang, 'success'), ...extra };
  };
  // 1. shape (no database)
  const inputs: (IngestInput | null)[] = rawRows.map((raw, i) => {
    try {
      const input = toIngestInput(raw, o);
      if (!input.gwTransId) throw rowError('gwGTransId', 'required');
      if (!conn.merchants.includes(input.merId)) throw new AppError(Code.FORBIDDEN, 'gwMerchantNotAllowed', { merId: input.merId }, 403, { field: 'clientid' });
      return input;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      reject(i, err);
      return null;
    }
  });
  const shaped = new Map<number, TxnRow>();
  inputs.forEach((input, i) => {
    if (!input) return;
    try {
      shaped.set(i, shapeRow(input, o));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      reject(i, err);
    }
  });
  // The same id twice in one batch: the first counts, the repeat is compared with it.
  const firstOf = new Map<string, number>();
  const repeats: number[] = [];
  for (const [i, r] of shaped) {
    if (firstOf.has(r.gw_trans_id)) repeats.push(i);
    else firstOf.set(r.gw_trans_id, i);
  }
  {
    const firsts = [...firstOf.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const ids = firsts.map(([g]) => g);
    // 2. claim, per connection (issue 47): (connection, gateway id) → the ledger row it stands for.
    //    The gateway's id is the ledger's when free; the unique insert conflicts on this
    //    connection's earlier claim (a repeat; a parallel identical batch waits here for the first
    //    and then finds the claim) or on another connection's use of the id as a ledger id.
    const claimed = new Set(
      ids.length
        ? (
            await q.query<{ gw_trans_id: string }>(
              `INSERT INTO gateway_txn (gw_trans_id, connection_id, txn_date, ledger_id)
               SELECT u.g, $3, u.d, u.g FROM unnest($1::text[], $2::date[]) WITH ORDINALITY AS u(g, d, n) ORDER BY u.n
               ON CONFLICT DO NOTHING RETURNING gw_trans_id`,
              [ids, firsts.map(([, i]) => shaped.get(i)!.txn_date), conn.id],
            )
          ).rows.map((c) => c.gw_trans_id)
        : [],
    );
    const ledgerOf = new Map<string, string>(ids.filter((g) => claimed.has(g)).map((g) => [g, g]));
    const heldBefore = async (gs: string[]) =>
      gs.length
        ? (await q.query<{ gw_trans_id: string; ledger_id: string }>('SELECT gw_trans_id, ledger_id FROM gateway_txn WHERE connection_id = $1 AND gw_trans_id = ANY($2::text[])', [conn.id, gs])).rows
        : [];
    for (const h of await heldBefore(ids.filter((g) => !claimed.has(g)))) ledgerOf.set(h.gw_trans_id, h.ledger_id);
    // A claimed id whose ledger row is not one this connection may address — a row of a merchant
    // not its own (the sandbox's, another gateway's merchant) — and an id another connection's
    // ledger row already has: this connection's row gets a ledger id of the portal's making. The
    // answer is the one a fresh id gets: nothing tells the connection the id exists elsewhere.
    const foreign = new Set<string>();
    if (claimed.size) {
      const { rows } = await q.query<{ gw_trans_id: string; mer_id: string }>('SELECT gw_trans_id, mer_id FROM txn_key WHERE gw_trans_id = ANY($1::text[])', [[...claimed]]);
      for (const r of rows) if (!conn.merchants.includes(r.mer_id)) foreign.add(r.gw_trans_id);
    }
    for (const g of ids) if (!ledgerOf.has(g)) foreign.add(g);
    for (const g of foreign) {
      const r = shaped.get(firstOf.get(g)!)!;
      const own = `G${compact(r.txn_date)}${randomBytes(8).toString('hex')}`;
      const { rows } = claimed.has(g)
        ? await q.query('UPDATE gateway_txn SET ledger_id = $3 WHERE connection_id = $1 AND gw_trans_id = $2 RETURNING 1', [conn.id, g, own])
        : await q.query('INSERT INTO gateway_txn (gw_trans_id, connection_id, txn_date, ledger_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1', [g, conn.id, r.txn_date, own]);
      if (rows.length) {
        claimed.add(g);
        ledgerOf.set(g, own);
      }
    }
    // (A parallel batch of this connection made the claim meanwhile: its ledger id.)
    for (const h of await heldBefore(ids.filter((g) => !ledgerOf.has(g)))) ledgerOf.set(h.gw_trans_id, h.ledger_id);
    // 3. compare with the ledger (by the ledger ids)
    const { rows: ledger } = ledgerOf.size
      ? await q.query<LedgerRow>(`SELECT ${LEDGER_COLS} FROM txn_key k JOIN txn t ON t.id = k.id AND t.txn_time = k.txn_time WHERE k.gw_trans_id = ANY($1::text[])`, [[...ledgerOf.values()]])
      : { rows: [] };
    const inLedger = new Map(ledger.map((l) => [l.gw_trans_id, l]));
    const portalOps = new Set(
      ledger.length ? (await q.query<{ txn_id: number }>('SELECT txn_id FROM acquirer_operation WHERE txn_id = ANY($1::int8[])', [ledger.map((l) => l.id)])).rows.map((o) => Number(o.txn_id)) : [],
    );
    const fresh: number[] = [];
    for (const [g, i] of firsts) {
      const r = shaped.get(i)!;
      const lid = ledgerOf.get(g);
      if (lid === undefined) {
        // (Only when a parallel batch of this connection holds the id and then gave it up.)
        reject(i, new AppError(Code.CONFLICT, 'gwTransConflict', { gwTransId: g, field: 'gwGTransId' }, 409, { field: 'gwGTransId' }));
        continue;
      }
      const l = inLedger.get(lid);
      if (!l) {
        fresh.push(i);
        continue;
      }
      const d = differs(r, l, portalOps.has(Number(l.id)));
      if (d) {
        reject(i, new AppError(Code.CONFLICT, 'gwTransConflict', { gwTransId: g, field: d }, 409, { field: d }));
        continue;
      }
      const incoming = r.gw_response;
      if (incoming === l.gw_response || isProcessing(incoming) || (isProcessing(incoming) && isProcessing(l.gw_response))) {
        ok(i, 'duplicate');
      } else if (isProcessing(l.gw_response)) {
        await finishProcessing(q, { id: Number(l.id) }, { gwResponse: incoming!, respMsg: r.resp_msg });
        ok(i, 'accepted', { statusChanged: true });
      } else {
        reject(i, new AppError(Code.CONFLICT, 'gwTransConflict', { gwTransId: g, field: 'gwResponse' }, 409, { field: 'gwResponse' }));
      }
    }
    // 4. write the new rows through the one ingestion path, under their ledger ids
    if (fresh.length) {
      const outcomes = await ingestEach(
        q,
        fresh.map((i) => ({ ...inputs[i]!, gwTransId: ledgerOf.get(shaped.get(i)!.gw_trans_id)! })),
        {
          platformTz: o.platformTz,
          now: o.now,
          beforeInsert: reserveRefund,
          // Issue 47: the feed never creates a month of the ledger; a row for one not made yet is refused.
          existingMonthsOnly: true,
        },
      );
      outcomes.forEach((out, k) => {
        const i = fresh[k];
        if (out.ok) ok(i, 'accepted');
        else reject(i, out.error);
      });
    }
    // A rejected row keeps nothing (issue 47): the claims this batch made for rows it refused are
    // given up — sent again corrected, the id is taken; no other connection's id is held.
    const release = firsts.filter(([g, i]) => claimed.has(g) && results[i]?.status === 'rejected').map(([g]) => g);
    if (release.length) await q.query('DELETE FROM gateway_txn WHERE connection_id = $1 AND gw_trans_id = ANY($2::text[])', [conn.id, release]);
    // The same id again inside the batch: compared with the ledger when the id is there, else
    // with its first occurrence (identical → answered as that one, or duplicate once it was accepted).
    const ledgerAfter = repeats.length
      ? new Map(
          (
            await q.query<LedgerRow>(`SELECT ${LEDGER_COLS} FROM txn_key k JOIN txn t ON t.id = k.id AND t.txn_time = k.txn_time WHERE k.gw_trans_id = ANY($1::text[])`, [
              [...new Set(repeats.map((i) => ledgerOf.get(shaped.get(i)!.gw_trans_id)).filter((x): x is string => x !== undefined))],
            ])
          ).rows.map((l) => [l.gw_trans_id, l]),
        )
      : new Map<string, LedgerRow>();
    for (const i of repeats) {
      const r = shaped.get(i)!;
      const first = firstOf.get(r.gw_trans_id)!;
      const lid = ledgerOf.get(r.gw_trans_id);
      const l = lid !== undefined ? ledgerAfter.get(lid) : undefined;
      const firstRow = shaped.get(first)!;
      const ref = l ?? { ...firstRow, txn_time: new Date(firstRow.txn_time) };
      const d = differs(r, ref);
      const sameStatus = r.gw_response === ref.gw_response || isProcessing(r.gw_response);
      if (d || !sameStatus) reject(i, new AppError(Code.CONFLICT, 'gwTransConflict', { gwTransId: r.gw_trans_id, field: d ?? 'gwResponse' }, 409, { field: d ?? 'gwResponse' }));
      else if (!l && results[first].status === 'rejected') results[i] = { ...results[first], index: i };
      else ok(i, 'duplicate');
    }
    const counts = tally(results);
    await audit(q, { action: 'gateway.feed.batch', username: `gateway:${conn.id}`, target: conn.id, detail: { source: o.source ?? 'gateway', rows: rawRows.length, ...counts } });
    // What the gateway said, row by row (the reconciliation compares it with the ledger).
    const said = [...firstOf.values()].map((i) => shaped.get(i)!);
    if (said.length) {
      await q.query(
        `INSERT INTO gateway_reported (connection_id, gw_trans_id, mer_id, txn_date, tran_type, currency, amount, gw_response)
         SELECT $1, u.g, u.m, u.d, u.t, u.c, u.a, u.r FROM unnest($2::text[], $3::text[], $4::date[], $5::text[], $6::text[], $7::int8[], $8::text[]) AS u(g, m, d, t, c, a, r)
         ORDER BY u.g
         ON CONFLICT (connection_id, gw_trans_id) DO UPDATE SET mer_id = excluded.mer_id, txn_date = excluded.txn_date, tran_type = excluded.tran_type,
           currency = excluded.currency, amount = excluded.amount, reported_at = now(),
           gw_response = CASE WHEN coalesce(excluded.gw_response, '') IN ('', '04') THEN gateway_reported.gw_response ELSE excluded.gw_response END`,
        [
          conn.id,
          said.map((r) => r.gw_trans_id),
          said.map((r) => r.mer_id),
          said.map((r) => r.txn_date),
          said.map((r) => r.tran_type),
          said.map((r) => r.currency),
          said.map((r) => r.amount * r.amount_sign),
          said.map((r) => r.gw_response),
        ],
      );
    }
  }
  return { results, ...tally(results) };
}

function tally(results: RowResult[]) {
  const c = { accepted: 0, duplicate: 0, rejected: 0 };
  for (const r of results) if (r) c[r.status]++;
  return c;
}

const fieldOf = (e: AppError) => (e.data as { field?: string } | null)?.field;

/**
 * A refund reported by the gateway, successful or still processing, takes its amount from what is
 * left of the purchase (the guard UPDATE: never past the purchase, even in parallel); a failed one
 * takes nothing. `finishProcessing` gives it back if the refund later fails.
 */
async function reserveRefund(q: Queryable, row: TxnRow): Promise<void> {
  if (row.tran_type !== 'REFD' || row.origin_txn_id === null) return;
  if (!(row.gw_response === '00' || isProcessing(row.gw_response))) return;
  const { rows } = await q.query(
    `UPDATE txn SET return_amount = return_amount + $2
      WHERE id = $1 AND tran_type = 'PURC' AND gw_response = '00' AND return_amount + $2 <= amount RETURNING 1`,
    [row.origin_txn_id, row.amount],
  );
  if (!rows.length) throw new AppError(Code.BAD_REQUEST, 'payRefundExceeds', {}, 400, { field: 'gwAmount' });
}

/** `POST /provider/v1/transactions/{id}/status`: a processing transaction of the connection's merchants made final. */
export async function reportStatus(db: Db, conn: Connection, gwTransId: string, body: { gwResponse: string; respMsg?: string | null }) {
  return db.tx(async (q) => {
    // The connection's own id (issue 47: ids are per connection): the ledger row its claim names;
    // unclaimed, the ledger row of that id when it is of one of its merchants and no other
    // connection's (a transaction the portal sent to the gateway). Anything else answers as absent.
    const { rows: held } = await q.query<{ ledger_id: string }>('SELECT ledger_id FROM gateway_txn WHERE connection_id = $1 AND gw_trans_id = $2', [conn.id, gwTransId]);
    const { rows } = await q.query<{ mer_id: string; gw_trans_id: string }>(
      held[0]
        ? 'SELECT mer_id, gw_trans_id FROM txn_key WHERE gw_trans_id = $1'
        : 'SELECT k.mer_id, k.gw_trans_id FROM txn_key k WHERE k.gw_trans_id = $1 AND NOT EXISTS (SELECT 1 FROM gateway_txn g WHERE g.ledger_id = k.gw_trans_id)',
      [held[0]?.ledger_id ?? gwTransId],
    );
    if (!rows[0] || !conn.merchants.includes(rows[0].mer_id)) throw new AppError(Code.NOT_FOUND, 'gwTransNotFound', { gwTransId }, 404);
    const out = await finishProcessing(q, { gwTransId: rows[0].gw_trans_id }, body);
    await q.query('UPDATE gateway_reported SET gw_response = $3, reported_at = now() WHERE connection_id = $1 AND gw_trans_id = $2', [conn.id, gwTransId, body.gwResponse]);
    if (out.changed) {
      await audit(q, { action: 'gateway.feed.status', username: `gateway:${conn.id}`, merId: out.merId, target: gwTransId, detail: { gwResponse: out.gwResponse, tranType: out.tranType } });
    }
    // Answered under the connection's own id (the ledger's may be of the portal's making).
    return { ...out, gwTransId };
  });
}
