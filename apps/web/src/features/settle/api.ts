import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page, SettleBatchRow } from '@portal/contract';
import { http, saveFile } from '../../lib/http';

export interface SettleBatchParams {
  page: number;
  size: number;
  beginDate: string;
  endDate: string;
  merId?: string;
  busLine?: string;
  setCur?: string;
}

/** GET /txn/settleDetail: settlement batches. */
export const useSettleBatches = (q: SettleBatchParams) =>
  useQuery({
    queryKey: ['txn', 'settleDetail', q],
    queryFn: ({ signal }) => http.get<Page<SettleBatchRow>>('/txn/settleDetail', { ...q }, { signal }),
    placeholderData: keepPreviousData,
  });

/** GET /txn/settleStatement (file): the batch's statement, PDF or CSV. */
export const downloadStatement = async (b: SettleBatchRow, format: 'pdf' | 'csv') =>
  saveFile(await http.file('/txn/settleStatement', { date: b.txnSetDate, merId: b.clientid, busLine: b.reconBusiness, setCur: b.merTxnSet, format }));
