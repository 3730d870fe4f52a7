import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { PayByLinkApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';

/** The list query of spec §3: creation dates (platform zone, 'YYYY-MM-DD'), orderno, reconId, status, page 0-based. */
export type PblWireQuery = Record<string, string | number | undefined>;

/** GET /payByLink/list; key from the descriptor: ['payByLink', 'list', q]. */
export const pblListQuery = (q: PblWireQuery) => queryOptions({ ...apiQuery(PayByLinkApi.list, q), placeholderData: keepPreviousData });

export const usePblList = (q: PblWireQuery) => useQuery(pblListQuery(q));
