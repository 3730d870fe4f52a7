import type { ExportStatus } from '@portal/contract';
import { http } from '../../../lib/http';
import type { TxnWireQuery } from './get-txn-list';

/** GET /txn/exportBack: queues the export (the file appears in /report/file). */
export const exportTxnBack = (q: TxnWireQuery & { format?: 'xlsx' | 'csv' }) => http.get<{ id: number; status: ExportStatus }>('/txn/exportBack', q);

/** GET /txn/export: the file at once (streamed). */
export const exportTxnFile = (q: TxnWireQuery & { format?: 'xlsx' | 'csv' }) => http.file('/txn/export', q);
