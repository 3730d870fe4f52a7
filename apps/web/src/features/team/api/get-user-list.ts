import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { UsersApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';

export type UserListQuery = Record<string, string | number | undefined>;

/** GET /user/list (spec §7): merId, status, text, page 0-based, size; key from the descriptor (['user', 'list', q]), one of the team's queries (team-queries.ts). */
export const userListQuery = (q: UserListQuery) => queryOptions({ ...apiQuery(UsersApi.list, q), placeholderData: keepPreviousData });

export const useUserList = (q: UserListQuery) => useQuery(userListQuery(q));
