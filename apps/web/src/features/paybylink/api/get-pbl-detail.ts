import { useQuery } from '@tanstack/react-query';
import { LIMITS, PayByLinkApi, pblStateOf, type PayByLinkDetail } from '@portal/contract';
import { http } from '../../../lib/http';
import { apiQuery } from '../../../lib/api-query';

/** GET /payByLink/{id}: the order with its activity timeline. */
export const getPblDetail = (id: number | string, signal?: AbortSignal) => http.call(PayByLinkApi.detail, { id }, { signal });

/** Key from the descriptor (['payByLink', ':id', { id }], the id as a string whichever the caller has): ['payByLink'] invalidates it. */
export const pblDetailQuery = (id: number | string) => apiQuery(PayByLinkApi.detail, { id: String(id) });

/**
 * While the order can still change on its own (not paid, or payment processing), it is fetched
 * again every 3 s — as the QR dialog polls — so the page shows "Paid" as soon as the buyer pays
 * (issue 29 finding 4); it stops once the order is paid or closed, and while the tab is hidden.
 */
export const pblDetailRefetch = (d: Pick<PayByLinkDetail, 'status' | 'openStatus'> | undefined): number | false => {
  if (!d) return false;
  const state = pblStateOf(d);
  return state === 'notPaid' || state === 'processing' ? LIMITS.qrPollMs : false;
};

export const usePblDetail = (id: number | string, enabled = true) => useQuery({ ...pblDetailQuery(id), enabled, refetchInterval: (q) => pblDetailRefetch(q.state.data) });
