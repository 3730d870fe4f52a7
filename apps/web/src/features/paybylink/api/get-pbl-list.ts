import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Page, PayByLinkRow } from '@portal/contract';
import { http } from '../../../lib/http';

/** The list query of spec §3: creation dates (platform zone, 'YYYY-MM-DD'), orderno, reconId, status, page 0-based. */
export type PblWireQuery = Record<string, string | number | undefined>;

/** GET /payByLink/list */
const getPblList = (q: PblWireQuery, signal?: AbortSignal) => http.get<Page<PayByLinkRow>>('/payByLink/list', q, { signal });

const pblListQuery = (q: PblWireQuery) => queryOptions({ queryKey: ['payByLink', 'list', q], queryFn: ({ signal }) => getPblList(q, signal), placeholderData: keepPreviousData });

export const usePblList = (q: PblWireQuery) => useQuery(pblListQuery(q));
