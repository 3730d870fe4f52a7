import { Code } from '@portal/contract';
import type { Db } from '../../db/db';
import { audit } from '../../lib/audit';
import { metrics } from '../../plugins/metrics';
import { AppError } from '../../lib/errors';
import { finishProcessing } from '../acquirer';
import type { Connection } from './gateway.service';
import type { BatchAnswer, FeedOptions } from './feed.rows';
import { receiveRows } from './feed.receive';

export { FeedRowSchema, toIngestInput, type BatchAnswer, type FeedOptions, type FeedRow, type FeedWindow, type RowResult, type RowStatus } from './feed.rows';
export { receiveRows } from './feed.receive';

/** Most rows in one `POST /provider/v1/transactions`. */
export const MAX_BATCH = 1000;

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
