import { Perm, type Takings, type TxnPage } from '@portal/contract';
import { getSession } from '../../lib/session';
import { dayInZone, dayRange } from './phone-dates';
import { http } from '../../lib/http';

export type DayRange = { beginDate: string; endDate: string };

/** GET /txn/takings: a day's takings per currency, store and brand. */
export const getTakings = (range: DayRange, quiet = false) => http.get<Takings>('/txn/takings', range, { quiet });

/** The day's five latest purchases (any result), newest first: GET /txn/list. Quiet: the next poll retries. */
export const getLatestPayments = (range: DayRange) =>
  http.get<TxnPage>('/txn/list', { ...range, gwTranType: 'PURC', page: 0, size: 5 }, { quiet: true });

type First = Promise<[Takings, TxnPage]>;
let first: { key: string; figures: First } | null = null;
const keyOf = (r: DayRange) => `${r.beginDate}|${r.endDate}`;

/**
 * Today's takings and latest payments, asked for as soon as the session is known (router.tsx, on
 * opening /m): beside the screen's own code, not after it has rendered (Lighthouse's LCP). Only
 * for a user who may see them; the user's zone decides the day, as on the screen.
 */
export function prefetchFirstFigures(): void {
  if (!getSession().user?.permissions.includes(Perm.txnList)) return;
  const range = dayRange(dayInZone());
  const figures: First = Promise.all([getTakings(range), getLatestPayments(range)]);
  figures.catch(() => undefined);
  first = { key: keyOf(range), figures };
}

/** The first figures of the day `range`: the prefetched ones when they are of that day (taken once), else asked now. */
export function firstFigures(range: DayRange): First {
  if (first?.key === keyOf(range)) {
    const { figures } = first;
    first = null;
    return figures;
  }
  return Promise.all([getTakings(range), getLatestPayments(range)]);
}
