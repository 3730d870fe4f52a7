import { queryOptions, useQuery } from '@tanstack/react-query';
import { HomeApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';

/** GET /dashboard/cashCalendar: the next `days` days of expected transfers and reserve releases per currency; key from the descriptor (['dashboard', 'cashCalendar', q]). */
export const cashCalendarQuery = (q: { merId?: string; days?: number }) => queryOptions({ ...apiQuery(HomeApi.cashCalendar, q), staleTime: 60_000 });

export const useCashCalendar = (q: { merId?: string; days?: number }) => useQuery(cashCalendarQuery(q));
