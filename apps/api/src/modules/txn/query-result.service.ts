import { resultStateOf, type TxnRow } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { notFound } from '../../lib/errors';
import { sandboxLedgerOf } from './acquirer';
import { operationOfTxn } from '../acquirer';
import { resolveOperation } from '../acquirer';
import { ROW_COLUMNS, toTxnRow, type TxnDbRow } from './txn.row';

/**
 * /txn/queryResult: for a processing transaction, asks the acquirer for its current result and
 * records it (the detail screen's button). A settled result is returned as it is. A row the portal
 * asked a gateway for (a refund, a charge) is asked about through its operation — the gateway
 * call happens with no transaction open; other sandbox rows resolve as before.
 */
export async function queryResult(deps: Deps, scope: string[], id: number): Promise<TxnRow> {
  const select = `SELECT ${ROW_COLUMNS} FROM txn t JOIN merchant m ON m.mer_id = t.mer_id WHERE t.id = $1 AND t.mer_id = ANY($2::text[])`;
  const found = (await deps.db.query<TxnDbRow>(select, [id, scope])).rows[0];
  if (!found) throw notFound();
  if (resultStateOf(found.gw_response) !== 'P') return toTxnRow(found, deps.config.platformTz);
  const op = await operationOfTxn(deps.db, id);
  if (op) {
    await resolveOperation(deps, op.id, { kind: 'system' });
    return toTxnRow((await deps.db.query<TxnDbRow>(select, [id, scope])).rows[0], deps.config.platformTz);
  }
  // With a real gateway, a processing row it reported is settled by its status feed, not here.
  if (deps.config.acquirer?.kind === 'http') return toTxnRow(found, deps.config.platformTz);
  const row = await deps.db.tx(async (q) => {
    const { rows } = await q.query<TxnDbRow>(`${select} FOR UPDATE OF t`, [id, scope]);
    const r = rows[0];
    if (resultStateOf(r.gw_response) !== 'P') return r;
    await sandboxLedgerOf(deps).resolvePending(q, r.id);
    return (await q.query<TxnDbRow>(select, [id, scope])).rows[0];
  });
  return toTxnRow(row, deps.config.platformTz);
}
