import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { UsersApi } from '@portal/contract';

export type UserListQuery = Record<string, string | number | undefined>;

/** GET /user/list (spec §7): merId, status, text, page 0-based, size. */
const getUserList = (q: UserListQuery, signal?: AbortSignal) => http.call(UsersApi.list, q, { signal });

const userListQuery = (q: UserListQuery) => queryOptions({ queryKey: ['team', 'users', q], queryFn: ({ signal }) => getUserList(q, signal), placeholderData: keepPreviousData });

export const useUserList = (q: UserListQuery) => useQuery(userListQuery(q));
