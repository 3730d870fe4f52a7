import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { TxnApi, type SettleBatchParams, type SettleBatchRow } from '@portal/contract';
import { http, saveFile } from '../../lib/http';
import { apiQuery } from '../../lib/api-query';
export type { SettleBatchParams } from '@portal/contract';

/** GET /txn/settleDetail: settlement batches; key from the descriptor (['txn', 'settleDetail', q]): a refund's ['txn'] invalidates it. */
export const settleBatchesQuery = (q: SettleBatchParams) => queryOptions({ ...apiQuery(TxnApi.settleDetail, q), placeholderData: keepPreviousData });
export const useSettleBatches = (q: SettleBatchParams) => useQuery(settleBatchesQuery(q));

/** GET /txn/settleStatement (file): the batch's statement, PDF or CSV. */
export const downloadStatement = async (b: SettleBatchRow, format: 'pdf' | 'csv') =>
  saveFile(await http.call(TxnApi.settleStatement, { date: b.txnSetDate, merId: b.clientid, busLine: b.reconBusiness, setCur: b.merTxnSet, format }));
