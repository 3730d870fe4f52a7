import { randomBytes } from 'node:crypto';
import { Code } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { audit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/messages';
import { ingestEach, type IngestInput, type TxnRow } from '../payments';
import { shapeRow } from '../payments';
import { isProcessing } from '../payments';
import { finishProcessing } from '../acquirer';
import { compact } from '../payments';
import type { Connection } from './gateway.service';
import { differs, LEDGER_COLS, reserveRefund, type LedgerRow } from './feed.ledger';
import { fieldOf, rowError, tally, toIngestInput, type BatchAnswer, type FeedOptions, type RowResult, type RowStatus } from './feed.rows';

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
