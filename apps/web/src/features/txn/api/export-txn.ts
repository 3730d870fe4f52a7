import { http } from '../../../lib/http';
import type { TxnWireQuery } from './get-txn-list';
import { TxnApi } from '@portal/contract';

/** GET /txn/exportBack: queues the export (the file appears in /report/file). */
export const exportTxnBack = (q: TxnWireQuery & { format?: 'xlsx' | 'csv' }) => http.call(TxnApi.exportBack, q);

/** GET /txn/export: the file at once (streamed). */
export const exportTxnFile = (q: TxnWireQuery & { format?: 'xlsx' | 'csv' }) => http.call(TxnApi.export, q);
