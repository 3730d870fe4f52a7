import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { NoticeApi } from '@portal/contract';

/** GET /notice/detail/{id}. */
const getNotice = (id: string, signal?: AbortSignal) => http.call(NoticeApi.detail, { id }, { signal });

const noticeQuery = (id: string) => queryOptions({ queryKey: ['notice', 'detail', id], queryFn: ({ signal }) => getNotice(id, signal) });

export const useNotice = (id: string) => useQuery(noticeQuery(id));
