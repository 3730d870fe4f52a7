import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccessPolicy, Page, ReviewRecord, ReviewRecordItem, ReviewState } from '@portal/contract';
import { http } from '../../../lib/http';

/** Access that expires (issue 28 item 3, decision 048): the inactivity limit and the quarterly access review. */
export const useAccessPolicy = (merId: string) => useQuery({ queryKey: ['team', 'access', 'policy', merId], queryFn: ({ signal }) => http.get<AccessPolicy>('/access/policy', { merId }, { signal }) });
export const saveAccessPolicy = (p: { merId: string; inactiveDays: number }) => http.post<AccessPolicy>('/access/policy', { ...p }, { quiet: true });

/** GET /access/review: the merchant's users with their grants and the open review's decisions. */
const reviewQuery = (merId: string) => queryOptions({ queryKey: ['team', 'access', 'review', merId], queryFn: ({ signal }) => http.get<ReviewState>('/access/review', { merId }, { signal }) });
export const useReview = (merId: string, enabled = true) => useQuery({ ...reviewQuery(merId), enabled });

export const decideReview = (merId: string, userId: number, decision: 'CONFIRM' | 'DISABLE' | 'REMOVE') =>
  http.post<ReviewState>('/access/review/decide', { merId, userId, decision }, { quiet: true });
export const completeReview = (merId: string) => http.post<ReviewRecord>('/access/review/complete', { merId }, { quiet: true });

export const useReviewHistory = (merId: string, page: number) =>
  useQuery({ queryKey: ['team', 'access', 'history', merId, page], queryFn: ({ signal }) => http.get<Page<ReviewRecord>>('/access/review/history', { merId, page, size: 10 }, { signal }) });
export const useReviewDetail = (id: number | null) =>
  useQuery({
    queryKey: ['team', 'access', 'detail', id],
    queryFn: ({ signal }) => http.get<{ review: ReviewRecord; items: ReviewRecordItem[] }>(`/access/review/${id}`, undefined, { signal }),
    enabled: id !== null,
  });
