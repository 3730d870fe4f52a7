import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { NoticeRow, Page } from '@portal/contract';
import { http } from '../../../lib/http';

/** GET /notice/list?page&size (page 0-based). */
const getNotices = (page: number, size: number, signal?: AbortSignal) => http.get<Page<NoticeRow>>('/notice/list', { page, size }, { signal });

const noticesQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: ['notice', 'list', { page, size }],
    queryFn: ({ signal }) => getNotices(page, size, signal),
    placeholderData: keepPreviousData,
  });

export const useNotices = (page: number, size: number) => useQuery(noticesQuery(page, size));
