import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CashCalendar } from '@portal/contract';
import { http } from '../../../lib/http';

/** GET /dashboard/cashCalendar: the next `days` days of expected transfers and reserve releases per currency. */
const cashCalendarQuery = (q: { merId?: string; days?: number }) =>
  queryOptions({
    queryKey: ['dashboard', 'cashCalendar', q],
    queryFn: ({ signal }) => http.get<CashCalendar>('/dashboard/cashCalendar', q, { signal }),
    staleTime: 60_000,
  });

export const useCashCalendar = (q: { merId?: string; days?: number }) => useQuery(cashCalendarQuery(q));
