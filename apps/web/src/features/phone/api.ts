import { TxnApi, type Takings, type TxnPage } from '@portal/contract';
import { browserZone } from '../../lib/time';
import { dayInZone, dayRange } from './phone-dates';
import { http } from '../../lib/http';

export type DayRange = { beginDate: string; endDate: string };

/** GET /txn/takings: a day's takings per currency, store and brand. */
export const getTakings = (range: DayRange, quiet = false) => http.call(TxnApi.takings, range, { quiet });

/** The day's five latest purchases (any result), newest first: GET /txn/list. Quiet: the next poll retries. */
export const getLatestPayments = (range: DayRange) => http.call(TxnApi.list, { ...range, gwTranType: 'PURC', page: 0, size: 5 }, { quiet: true });

type First = Promise<[Takings, TxnPage]>;
let first: { key: string; figures: First } | null = null;
const keyOf = (r: DayRange) => `${r.beginDate}|${r.endDate}`;

/**
 * Today's takings and latest payments, asked for at once when /m is opened (router.tsx), beside
 * the session's first calls rather than after the screen has rendered (Lighthouse's LCP). The day
 * is the browser zone's: the screen takes these only when the user's chosen zone gives the same
 * day (firstFigures), and only for a user who may see them (else it never asks). Quiet: a failure
 * (no permission, no network) is the screen's own next call's to show.
 */
export function prefetchFirstFigures(): void {
  const range = dayRange(dayInZone(Date.now(), browserZone()), browserZone());
  const figures: First = Promise.all([getTakings(range, true), getLatestPayments(range)]);
  figures.catch(() => undefined);
  first = { key: keyOf(range), figures };
}

/** The first figures of the day `range`: the prefetched ones when they are of that day (taken once), else asked now. */
export function firstFigures(range: DayRange): First {
  if (first?.key === keyOf(range)) {
    const { figures } = first;
    first = null;
    // Asked quietly: when it failed, ask again (showing the error this time).
    return figures.catch(() => Promise.all([getTakings(range), getLatestPayments(range)]));
  }
  return Promise.all([getTakings(range), getLatestPayments(range)]);
}
