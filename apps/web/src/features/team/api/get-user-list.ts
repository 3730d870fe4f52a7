import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Page, TeamUserRow } from '@portal/contract';
import { http } from '../../../lib/http';

export type UserListQuery = Record<string, string | number | undefined>;

/** GET /user/list (spec §7): merId, status, text, page 0-based, size. */
const getUserList = (q: UserListQuery, signal?: AbortSignal) => http.get<Page<TeamUserRow>>('/user/list', q, { signal });

const userListQuery = (q: UserListQuery) => queryOptions({ queryKey: ['team', 'users', q], queryFn: ({ signal }) => getUserList(q, signal), placeholderData: keepPreviousData });

export const useUserList = (q: UserListQuery) => useQuery(userListQuery(q));
