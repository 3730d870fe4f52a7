/**
 * Calendar-date arithmetic on 'YYYY-MM-DD' strings, one copy for every module (issue 45 §1: the
 * transactions and payments modules each had their own `daysBetween` and `addDays`). A date is a
 * UTC midnight: no time zone and no daylight saving enter the count.
 */

/**
 * Days from `a` to `b` (b − a), whole. Only the date part of each is read ('YYYY-MM-DD…': a
 * 'YYYY-MM-DD HH:mm:ss' counts by its date), as the transactions module's did; rounded, as the
 * payments module's was — between two UTC midnights the two agree (the rounding never changed a
 * count; `dates.test.ts`).
 */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b.slice(0, 10)}T00:00:00Z`) - Date.parse(`${a.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
}

/** The date `n` days after `date` (before it when negative). */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
