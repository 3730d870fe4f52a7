import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { TxnApi, type SettleBatchParams, type SettleBatchRow } from '@portal/contract';
import { http, saveFile } from '../../lib/http';
export type { SettleBatchParams } from '@portal/contract';

/** GET /txn/settleDetail: settlement batches. */
export const useSettleBatches = (q: SettleBatchParams) =>
  useQuery({
    queryKey: ['txn', 'settleDetail', q],
    queryFn: ({ signal }) => http.call(TxnApi.settleDetail, { ...q }, { signal }),
    placeholderData: keepPreviousData,
  });

/** GET /txn/settleStatement (file): the batch's statement, PDF or CSV. */
export const downloadStatement = async (b: SettleBatchRow, format: 'pdf' | 'csv') =>
  saveFile(await http.call(TxnApi.settleStatement, { date: b.txnSetDate, merId: b.clientid, busLine: b.reconBusiness, setCur: b.merTxnSet, format }));
