import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PayByLinkDetail } from '@portal/contract';
import { http } from '../../../lib/http';

/** GET /payByLink/{id}: the order with its activity timeline. */
export const getPblDetail = (id: number | string, signal?: AbortSignal) => http.get<PayByLinkDetail>(`/payByLink/${encodeURIComponent(String(id))}`, undefined, { signal });

export const pblDetailQuery = (id: number | string) => queryOptions({ queryKey: ['payByLink', 'detail', String(id)], queryFn: ({ signal }) => getPblDetail(id, signal) });

export const usePblDetail = (id: number | string, enabled = true) => useQuery({ ...pblDetailQuery(id), enabled });
