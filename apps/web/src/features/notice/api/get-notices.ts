import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { NoticeApi } from '@portal/contract';

/** GET /notice/list?page&size (page 0-based). */
const getNotices = (page: number, size: number, signal?: AbortSignal) => http.call(NoticeApi.list, { page, size }, { signal });

const noticesQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: ['notice', 'list', { page, size }],
    queryFn: ({ signal }) => getNotices(page, size, signal),
    placeholderData: keepPreviousData,
  });

export const useNotices = (page: number, size: number) => useQuery(noticesQuery(page, size));
