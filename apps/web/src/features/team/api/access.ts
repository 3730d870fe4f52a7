import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { TeamApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';

/** Access that expires (issue 28 item 3, decision 048): the inactivity limit and the quarterly access review. */
export const useAccessPolicy = (merId: string) => useQuery(apiQuery(TeamApi.accessPolicy, { merId }));
export const saveAccessPolicy = (p: { merId: string; inactiveDays: number }) => http.call(TeamApi.saveAccessPolicy, { ...p }, { quiet: true });

/** GET /access/review: the merchant's users with their grants and the open review's decisions. */
const reviewQuery = (merId: string) => apiQuery(TeamApi.review, { merId });
export const useReview = (merId: string, enabled = true) => useQuery({ ...reviewQuery(merId), enabled });

export const decideReview = (merId: string, userId: number, decision: 'CONFIRM' | 'DISABLE' | 'REMOVE') => http.call(TeamApi.reviewDecide, { merId, userId, decision }, { quiet: true });
export const completeReview = (merId: string) => http.call(TeamApi.reviewComplete, { merId }, { quiet: true });

export const useReviewHistory = (merId: string, page: number) => useQuery(apiQuery(TeamApi.reviewHistory, { merId, page, size: 10 }));
export const useReviewDetail = (id: number | null) =>
  useQuery({
    ...apiQuery(TeamApi.reviewRecord, { id: id! }),
    enabled: id !== null,
  });
