import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { HomeApi } from '@portal/contract';

/** GET /dashboard/cashCalendar: the next `days` days of expected transfers and reserve releases per currency. */
const cashCalendarQuery = (q: { merId?: string; days?: number }) =>
  queryOptions({
    queryKey: ['dashboard', 'cashCalendar', q],
    queryFn: ({ signal }) => http.call(HomeApi.cashCalendar, q, { signal }),
    staleTime: 60_000,
  });

export const useCashCalendar = (q: { merId?: string; days?: number }) => useQuery(cashCalendarQuery(q));
