import { useQuery } from '@tanstack/react-query';
import { NoticeApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';

/** GET /notice/detail/{id}; key from the descriptor: ['notice', 'detail', ':id', { id }]. */
const noticeQuery = (id: string) => apiQuery(NoticeApi.detail, { id });

export const useNotice = (id: string) => useQuery(noticeQuery(id));
