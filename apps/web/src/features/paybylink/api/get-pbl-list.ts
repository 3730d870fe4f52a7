import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { PayByLinkApi } from '@portal/contract';

/** The list query of spec §3: creation dates (platform zone, 'YYYY-MM-DD'), orderno, reconId, status, page 0-based. */
export type PblWireQuery = Record<string, string | number | undefined>;

/** GET /payByLink/list */
const getPblList = (q: PblWireQuery, signal?: AbortSignal) => http.call(PayByLinkApi.list, q, { signal });

const pblListQuery = (q: PblWireQuery) => queryOptions({ queryKey: ['payByLink', 'list', q], queryFn: ({ signal }) => getPblList(q, signal), placeholderData: keepPreviousData });

export const usePblList = (q: PblWireQuery) => useQuery(pblListQuery(q));
