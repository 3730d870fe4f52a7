import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { NoticeApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';

/** GET /notice/list?page&size (page 0-based); key from the descriptor: ['notice', 'list', { page, size }]. */
const noticesQuery = (page: number, size: number) =>
  queryOptions({
    ...apiQuery(NoticeApi.list, { page, size }),
    placeholderData: keepPreviousData,
  });

export const useNotices = (page: number, size: number) => useQuery(noticesQuery(page, size));
