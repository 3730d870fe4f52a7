import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NoticeDetail } from '@portal/contract';
import { http } from '../../../lib/http';

/** GET /notice/detail/{id}. */
const getNotice = (id: string, signal?: AbortSignal) => http.get<NoticeDetail>(`/notice/detail/${encodeURIComponent(id)}`, undefined, { signal });

const noticeQuery = (id: string) => queryOptions({ queryKey: ['notice', 'detail', id], queryFn: ({ signal }) => getNotice(id, signal) });

export const useNotice = (id: string) => useQuery(noticeQuery(id));
