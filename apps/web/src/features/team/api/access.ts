import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { TeamApi } from '@portal/contract';

/** Access that expires (issue 28 item 3, decision 048): the inactivity limit and the quarterly access review. */
export const useAccessPolicy = (merId: string) => useQuery({ queryKey: ['team', 'access', 'policy', merId], queryFn: ({ signal }) => http.call(TeamApi.accessPolicy, { merId }, { signal }) });
export const saveAccessPolicy = (p: { merId: string; inactiveDays: number }) => http.call(TeamApi.saveAccessPolicy, { ...p }, { quiet: true });

/** GET /access/review: the merchant's users with their grants and the open review's decisions. */
const reviewQuery = (merId: string) => queryOptions({ queryKey: ['team', 'access', 'review', merId], queryFn: ({ signal }) => http.call(TeamApi.review, { merId }, { signal }) });
export const useReview = (merId: string, enabled = true) => useQuery({ ...reviewQuery(merId), enabled });

export const decideReview = (merId: string, userId: number, decision: 'CONFIRM' | 'DISABLE' | 'REMOVE') => http.call(TeamApi.reviewDecide, { merId, userId, decision }, { quiet: true });
export const completeReview = (merId: string) => http.call(TeamApi.reviewComplete, { merId }, { quiet: true });

export const useReviewHistory = (merId: string, page: number) =>
  useQuery({ queryKey: ['team', 'access', 'history', merId, page], queryFn: ({ signal }) => http.call(TeamApi.reviewHistory, { merId, page, size: 10 }, { signal }) });
export const useReviewDetail = (id: number | null) =>
  useQuery({
    queryKey: ['team', 'access', 'detail', id],
    queryFn: ({ signal }) => http.call(TeamApi.reviewRecord, { id: id! }, { signal }),
    enabled: id !== null,
  });
