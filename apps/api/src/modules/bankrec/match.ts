/**
 * The matcher (decision 062): bank credits ↔ transfers, a pure function over the unmatched ones of
 * one merchant, so that property tests run it on generated data and the service only loads and stores.
 *
 * Rules, in order (each credit and transfer is used at most once):
 *  1. Reference: a credit whose reference or text carries transfer ids (`YYYY-MM-DD.merchant.line.CUR`,
 *     the remittance text the portal's transfers are sent with) matches those transfers when the
 *     currency is the same and the amount equals their sum, or falls short of it by a bank fee.
 *     The date window does not apply: the bank named the transfer.
 *  2. Exact: same currency, same amount, the credit's booking date in the transfer's window
 *     (remit date − WINDOW_BEFORE … + WINDOW_AFTER days); the nearest date wins.
 *  3. Bank fee: the credit is short of one transfer by at most the fee tolerance (FEE_MAX_BP of the
 *     transfer, and at most FEE_MAX_UNITS whole units of the currency), in the window.
 *  4. Batch (many to one): one credit = the sum of 2 or 3 transfers in the window (exactly).
 *  5. Split (one to many): one transfer = the sum of 2 or 3 credits in the window (exactly).
 * A credit carrying another transfer's id never matches by amount alone (rules 2–5 skip it).
 * What is left is explained against its nearest counterpart: amount off by X, date outside the
 * window by N days, reference differs, currency differs.
 */

export const WINDOW_BEFORE = 1;
export const WINDOW_AFTER = 4;
export const FEE_MAX_BP = 100;
export const FEE_MAX_UNITS = 50;
const MAX_CANDIDATES = 40;

export interface Credit {
  id: number;
  amount: number;
  currency: string;
  date: string;
  reference: string | null;
  description: string | null;
}

export interface Transfer {
  /** The transfer's id: `txnSetDate.merId.busLine.setCur` (as /v1/transfers names it). */
  id: string;
  amount: number;
  currency: string;
  remitDate: string;
}

export type MatchKind = 'exact' | 'fee' | 'batch' | 'split';

export interface Proposal {
  kind: MatchKind;
  entryIds: number[];
  transferIds: string[];
  currency: string;
  credit: number;
  transfer: number;
  fee: number;
  byReference: boolean;
}

export type Why =
  | { code: 'amountOff'; diff: number; currency: string }
  | { code: 'dateOutside'; days: number }
  | { code: 'referenceDiffers'; reference: string }
  | { code: 'currencyDiffers'; currency: string }
  | { code: 'feeTooLarge'; diff: number; currency: string; max: number };

export interface NearMiss {
  /** The nearest counterpart (a transfer id for a credit, an entry id for a transfer), or null when there is none at all. */
  nearest: string | number | null;
  why: Why[];
}

const ID_TOKEN = /\d{4}-\d\d-\d\d\.\d{15}\.[A-Z0-9_]{1,20}\.[A-Z]{3}/g;
/** The transfer ids a credit's reference and text carry (spaces dropped, upper-cased). */
export function transferIdsIn(c: Pick<Credit, 'reference' | 'description'>): string[] {
  const text = `${c.reference ?? ''} ${c.description ?? ''}`.toUpperCase().replace(/\s+/g, '');
  return [...new Set(text.match(ID_TOKEN) ?? [])];
}

const DAY = 86_400_000;
const dayNo = (d: string) => Math.round(Date.parse(`${d}T00:00:00Z`) / DAY);
/** Days the credit's date lies outside the transfer's window (0 inside). */
export function daysOutside(creditDate: string, remitDate: string): number {
  const d = dayNo(creditDate) - dayNo(remitDate);
  if (d < -WINDOW_BEFORE) return d + WINDOW_BEFORE;
  if (d > WINDOW_AFTER) return d - WINDOW_AFTER;
  return 0;
}
const inWindow = (c: Credit, t: Transfer) => daysOutside(c.date, t.remitDate) === 0;

const EXP: Record<string, number> = { JPY: 0, KRW: 0 };
/** The largest bank fee proposed as such on a transfer of `amount` minor units. */
export function feeTolerance(amount: number, currency: string): number {
  const units = FEE_MAX_UNITS * 10 ** (EXP[currency] ?? 2);
  return Math.min(units, Math.floor((amount * FEE_MAX_BP) / 10_000));
}

/** A proposal's identity: its entries and transfers (a dismissed proposal is not made again). */
export const signatureOf = (entryIds: number[], transferIds: string[]) => `${[...entryIds].sort((a, b) => a - b).join(',')}|${[...transferIds].sort().join(',')}`;

export function proposeMatches(credits: Credit[], transfers: Transfer[], dismissed: ReadonlySet<string> = new Set()): Proposal[] {
  const out: Proposal[] = [];
  const usedC = new Set<number>();
  const usedT = new Set<string>();
  const byId = new Map(transfers.map((t) => [t.id, t]));
  const cs = credits.filter((c) => c.amount > 0).sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
  const ts = [...transfers].filter((t) => t.amount > 0).sort((a, b) => a.remitDate.localeCompare(b.remitDate) || a.id.localeCompare(b.id));
  const tokens = new Map(cs.map((c) => [c.id, transferIdsIn(c)]));
  const add = (p: Omit<Proposal, 'credit' | 'transfer' | 'fee'>, credit: number, transfer: number) => {
    if (dismissed.has(signatureOf(p.entryIds, p.transferIds))) return false;
    out.push({ ...p, credit, transfer, fee: transfer - credit });
    for (const e of p.entryIds) usedC.add(e);
    for (const t of p.transferIds) usedT.add(t);
    return true;
  };

  // 1. By reference.
  for (const c of cs) {
    const ids = tokens.get(c.id)!;
    if (!ids.length) continue;
    const named = ids.map((i) => byId.get(i)).filter((t): t is Transfer => !!t && !usedT.has(t.id) && t.currency === c.currency);
    if (named.length !== ids.length) continue;
    const sum = named.reduce((s, t) => s + t.amount, 0);
    const fee = sum - c.amount;
    if (fee < 0 || fee > feeTolerance(sum, c.currency)) continue;
    const kind: MatchKind = named.length > 1 ? 'batch' : fee > 0 ? 'fee' : 'exact';
    add({ kind, entryIds: [c.id], transferIds: named.map((t) => t.id), currency: c.currency, byReference: true }, c.amount, sum);
  }

  // Unmatched transfers by currency and amount (exact look-ups), and by currency sorted by amount (fee range).
  const freeCredits = () => cs.filter((c) => !usedC.has(c.id) && tokens.get(c.id)!.length === 0);
  const byAmount = new Map<string, Transfer[]>();
  for (const t of ts) {
    const k = `${t.currency}:${t.amount}`;
    const l = byAmount.get(k);
    if (l) l.push(t);
    else byAmount.set(k, [t]);
  }
  const nearest = (c: Credit, list: Transfer[]) => {
    let best: Transfer | null = null;
    let bestD = Infinity;
    for (const t of list) {
      if (usedT.has(t.id) || !inWindow(c, t)) continue;
      const d = Math.abs(dayNo(c.date) - dayNo(t.remitDate));
      if (d < bestD) [best, bestD] = [t, d];
    }
    return best;
  };

  // 2. Exact amount in the window.
  for (const c of freeCredits()) {
    const t = nearest(c, byAmount.get(`${c.currency}:${c.amount}`) ?? []);
    if (t) add({ kind: 'exact', entryIds: [c.id], transferIds: [t.id], currency: c.currency, byReference: false }, c.amount, t.amount);
  }

  // 3. Short by a bank fee.
  const sortedBy = new Map<string, Transfer[]>();
  for (const t of ts) (sortedBy.get(t.currency) ?? sortedBy.set(t.currency, []).get(t.currency)!).push(t);
  for (const l of sortedBy.values()) l.sort((a, b) => a.amount - b.amount);
  const lowerBound = (l: Transfer[], amount: number) => {
    let lo = 0;
    let hi = l.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (l[mid].amount < amount) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  for (const c of freeCredits()) {
    const l = sortedBy.get(c.currency) ?? [];
    let best: Transfer | null = null;
    for (let i = lowerBound(l, c.amount + 1); i < l.length; i++) {
      const t = l[i];
      const fee = t.amount - c.amount;
      // The tolerance grows with the amount: stop once even the largest one (FEE_MAX_UNITS) is passed.
      if (fee > FEE_MAX_UNITS * 10 ** (EXP[c.currency] ?? 2)) break;
      if (usedT.has(t.id) || fee > feeTolerance(t.amount, c.currency) || !inWindow(c, t)) continue;
      if (!best || fee < best.amount - c.amount) best = t;
    }
    if (best) add({ kind: 'fee', entryIds: [c.id], transferIds: [best.id], currency: c.currency, byReference: false }, c.amount, best.amount);
  }

  // Both sides sorted by day, for the window's range (binary search) in rules 4 and 5.
  const tDays = ts.map((t) => dayNo(t.remitDate));
  const restC = freeCredits();
  const cDays = restC.map((c) => dayNo(c.date));

  // 4. Batch: one credit = 2 or 3 transfers.
  for (const c of restC) {
    const d = dayNo(c.date);
    const cand: Transfer[] = [];
    for (let i = firstAtLeast(tDays, d - WINDOW_AFTER); i < ts.length && tDays[i] <= d + WINDOW_BEFORE && cand.length < MAX_CANDIDATES; i++) {
      const t = ts[i];
      if (!usedT.has(t.id) && t.currency === c.currency && t.amount < c.amount) cand.push(t);
    }
    const group = subsetSum(cand, (t) => t.amount, c.amount);
    if (group) add({ kind: 'batch', entryIds: [c.id], transferIds: group.map((t) => t.id), currency: c.currency, byReference: false }, c.amount, c.amount);
  }

  // 5. Split: one transfer = 2 or 3 credits.
  ts.forEach((t, k) => {
    if (usedT.has(t.id)) return;
    const d = tDays[k];
    const cand: Credit[] = [];
    for (let i = firstAtLeast(cDays, d - WINDOW_BEFORE); i < restC.length && cDays[i] <= d + WINDOW_AFTER && cand.length < MAX_CANDIDATES; i++) {
      const c = restC[i];
      if (!usedC.has(c.id) && c.currency === t.currency && c.amount < t.amount) cand.push(c);
    }
    const group = subsetSum(cand, (c) => c.amount, t.amount);
    if (group) add({ kind: 'split', entryIds: group.map((c) => c.id), transferIds: [t.id], currency: t.currency, byReference: false }, t.amount, t.amount);
  });
  return out;
}

/** The first index of an ascending array whose value is ≥ v. */
function firstAtLeast(a: number[], v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Two or three items whose amounts add up to `target` exactly (the first found), else null. */
function subsetSum<T>(items: T[], amt: (x: T) => number, target: number): T[] | null {
  const seen = new Map<number, number>();
  for (let j = 0; j < items.length; j++) {
    const i = seen.get(target - amt(items[j]));
    if (i !== undefined) return [items[i], items[j]];
    if (!seen.has(amt(items[j]))) seen.set(amt(items[j]), j);
  }
  for (let a = 0; a < items.length; a++) {
    for (let b = a + 1; b < items.length; b++) {
      const rest = target - amt(items[a]) - amt(items[b]);
      if (rest <= 0) continue;
      for (let c = b + 1; c < items.length; c++) if (amt(items[c]) === rest) return [items[a], items[b], items[c]];
    }
  }
  return null;
}

/** Why a credit found no transfer: against the nearest unmatched transfer (by amount, then date). */
export function explainCredit(c: Credit, transfers: Transfer[]): NearMiss {
  const ids = transferIdsIn(c);
  const named = ids.map((i) => transfers.find((t) => t.id === i)).find((t) => !!t);
  const t = named ?? nearestTransfer(c, transfers);
  if (!t) return { nearest: null, why: [] };
  return { nearest: t.id, why: reasons(c, t, ids) };
}

/** Why a transfer found no credit: against the nearest unmatched credit. */
export function explainTransfer(t: Transfer, credits: Credit[]): NearMiss {
  const pool = credits.filter((c) => c.amount > 0);
  const same = pool.filter((c) => c.currency === t.currency);
  const list = same.length ? same : pool;
  let best: Credit | null = null;
  let score = Infinity;
  for (const c of list) {
    const s = Math.abs(c.amount - t.amount) / Math.max(1, t.amount) + Math.abs(dayNo(c.date) - dayNo(t.remitDate)) / 30;
    if (s < score) [best, score] = [c, s];
  }
  if (!best) return { nearest: null, why: [] };
  return { nearest: best.id, why: reasons(best, t, transferIdsIn(best)) };
}

function nearestTransfer(c: Credit, transfers: Transfer[]): Transfer | null {
  const same = transfers.filter((t) => t.currency === c.currency);
  const list = same.length ? same : transfers;
  let best: Transfer | null = null;
  let score = Infinity;
  for (const t of list) {
    const s = Math.abs(c.amount - t.amount) / Math.max(1, t.amount) + Math.abs(dayNo(c.date) - dayNo(t.remitDate)) / 30;
    if (s < score) [best, score] = [t, s];
  }
  return best;
}

function reasons(c: Credit, t: Transfer, ids: string[]): Why[] {
  const why: Why[] = [];
  if (c.currency !== t.currency) why.push({ code: 'currencyDiffers', currency: c.currency });
  else if (c.amount !== t.amount) {
    const diff = c.amount - t.amount;
    const tol = feeTolerance(t.amount, t.currency);
    if (diff < 0 && -diff > tol) why.push({ code: 'feeTooLarge', diff, currency: t.currency, max: tol });
    else why.push({ code: 'amountOff', diff, currency: t.currency });
  }
  const out = daysOutside(c.date, t.remitDate);
  if (out !== 0) why.push({ code: 'dateOutside', days: out });
  const other = ids.find((i) => i !== t.id);
  if (other) why.push({ code: 'referenceDiffers', reference: other });
  return why;
}
