import type { Takings, TxnPage } from '@portal/contract';
import { http } from '../../lib/http';

export type DayRange = { beginDate: string; endDate: string };

/** GET /txn/takings: a day's takings per currency, store and brand. */
export const getTakings = (range: DayRange, quiet = false) => http.get<Takings>('/txn/takings', range, { quiet });

/** The day's ten latest purchases (any result), newest first: GET /txn/list. Quiet: the next poll retries. */
export const getLatestPayments = (range: DayRange) =>
  http.get<TxnPage>('/txn/list', { ...range, gwTranType: 'PURC', page: 0, size: 10 }, { quiet: true });
