import { resultStateOf, type TxnRow } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { notFound } from '../../lib/errors';
import { acquirerOf } from './acquirer';
import { ROW_COLUMNS, toTxnRow, type TxnDbRow } from './txn.repo';

/**
 * /txn/queryResult: for a processing transaction, asks the acquirer for its current result and
 * records it (the detail screen's button). A settled result is returned as it is.
 */
export async function queryResult(deps: Deps, scope: string[], id: number): Promise<TxnRow> {
  const acquirer = acquirerOf(deps);
  const select = `SELECT ${ROW_COLUMNS} FROM txn t JOIN merchant m ON m.mer_id = t.mer_id WHERE t.id = $1 AND t.mer_id = ANY($2::text[])`;
  const row = await deps.db.tx(async (q) => {
    const { rows } = await q.query<TxnDbRow>(`${select} FOR UPDATE OF t`, [id, scope]);
    const r = rows[0];
    if (!r) throw notFound();
    if (resultStateOf(r.gw_response) !== 'P') return r;
    await acquirer.resolvePending(q, r.id);
    return (await q.query<TxnDbRow>(select, [id, scope])).rows[0];
  });
  return toTxnRow(row, deps.config.platformTz);
}
