import { Code, exceedsThreeMonths, type Language, type ReportFilter } from '@portal/contract';
import { AppError } from '../../lib/errors';
import { RANGE_NAMES, type RangeName } from './report.labels';

/** A checked date range: both ends 'YYYY-MM-DD', begin ≤ end, at most three months. */
export interface Range {
  begin: string;
  end: string;
}

const PAIRS: Record<RangeName, [keyof ReportFilter, keyof ReportFilter]> = {
  settlement: ['beginDate', 'endDate'],
  remit: ['remitBeginDate', 'remitEndDate'],
  release: ['releaseBeginDate', 'releaseEndDate'],
  transfer: ['transferBeginDate', 'transferEndDate'],
};

const rangeError = (key: 'reportRangeRequired' | 'reportRangeIncomplete' | 'reportRangeInverted', name: RangeName, lang: Language) =>
  new AppError(Code.BAD_REQUEST, key, { range: RANGE_NAMES[name][lang] }, 400);

/** Reads one range of the query; undefined when neither end is given. Spec §5: at most three months. */
export function readRange(f: ReportFilter, name: RangeName, lang: Language): Range | undefined {
  const [b, e] = PAIRS[name];
  const begin = f[b] as string | undefined;
  const end = f[e] as string | undefined;
  if (!begin && !end) return undefined;
  if (!begin || !end) throw rangeError('reportRangeIncomplete', name, lang);
  if (begin > end) throw rangeError('reportRangeInverted', name, lang);
  if (exceedsThreeMonths(begin, end)) throw new AppError(Code.BAD_REQUEST, 'reportRangeTooLong', {}, 400);
  return { begin, end };
}

/** The settlement range a bill / transfer / summary query needs. */
export function settlementRange(f: ReportFilter, lang: Language): Range {
  const r = readRange(f, 'settlement', lang);
  if (!r) throw rangeError('reportRangeRequired', 'settlement', lang);
  return r;
}

export interface ReserveRanges {
  settlement?: Range;
  release?: Range;
  /** The remittance (transfer) date of the release: remitBeginDate/remitEndDate or transferBeginDate/transferEndDate. */
  remit?: Range;
  transfer?: Range;
}

/** The reserve report's three ranges; at least one is needed (the screen defaults to the last 7 settlement days). */
export function reserveRanges(f: ReportFilter, lang: Language): ReserveRanges {
  const out: ReserveRanges = {
    settlement: readRange(f, 'settlement', lang),
    release: readRange(f, 'release', lang),
    remit: readRange(f, 'remit', lang),
    transfer: readRange(f, 'transfer', lang),
  };
  if (!out.settlement && !out.release && !out.remit && !out.transfer) throw rangeError('reportRangeRequired', 'settlement', lang);
  return out;
}

/** Days a range spans (both ends included). */
export const spanDays = (r: Range) => Math.round((Date.parse(`${r.end}T00:00:00Z`) - Date.parse(`${r.begin}T00:00:00Z`)) / 86_400_000) + 1;
