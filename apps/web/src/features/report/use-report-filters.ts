import { useCallback } from 'react';
import { isCalendarDate } from '@portal/contract';
import { WIRE_DATE, zoneNow } from '../../lib/time';
import { useUrlFilters } from '../../lib/url-filters';
import type { ReportWireQuery } from './api/report-client';

/** A report's filters as kept in the URL, under the wire's own names (spec §3). */
export interface ReportFilters {
  beginDate?: string;
  endDate?: string;
  remitBeginDate?: string;
  remitEndDate?: string;
  releaseBeginDate?: string;
  releaseEndDate?: string;
  merId?: string;
  gwTranType?: string;
  paymentBrand: string[];
}

const DATE_KEYS = ['beginDate', 'endDate', 'remitBeginDate', 'remitEndDate', 'releaseBeginDate', 'releaseEndDate'] as const;
/** URL parameters a search keeps (the summary's version switch, the page size). */
const KEPT = ['version', 'size'] as const;

/** The preset every report opens with: the last 7 days, today included. */
export function lastDays(n = 7): { beginDate: string; endDate: string } {
  const today = zoneNow();
  return { beginDate: today.subtract(n - 1, 'day').format(WIRE_DATE), endDate: today.format(WIRE_DATE) };
}

function read(params: URLSearchParams, defaults: { beginDate?: string; endDate?: string }): ReportFilters {
  const f: ReportFilters = { paymentBrand: (params.get('paymentBrand') ?? '').split(',').filter((b) => /^[a-z0-9_]+$/.test(b)) };
  for (const k of DATE_KEYS) {
    const v = params.get(k);
    if (v && isCalendarDate(v)) f[k] = v;
  }
  if (!params.has('beginDate') && !params.has('endDate')) Object.assign(f, defaults);
  const merId = params.get('merId');
  if (merId && /^\d{15}$/.test(merId)) f.merId = merId;
  const type = params.get('gwTranType');
  if (type) f.gwTranType = type;
  return f;
}

function write(next: ReportFilters, out: URLSearchParams) {
  for (const k of DATE_KEYS) if (next[k]) out.set(k, next[k]!);
  if (!next.beginDate) out.set('beginDate', '');
  if (next.merId) out.set('merId', next.merId);
  if (next.gwTranType) out.set('gwTranType', next.gwTranType);
  if (next.paymentBrand.length) out.set('paymentBrand', next.paymentBrand.join(','));
}

/**
 * Reads and writes the filters, page and size in the URL, so reload, back and shared links keep
 * them. Without dates in the URL the settlement range is `defaults`; a range the user cleared is
 * kept as an empty value (`beginDate=`), so it stays cleared on reload.
 */
export function useReportFilters(defaults: { beginDate?: string; endDate?: string } = lastDays()) {
  const parse = useCallback((params: URLSearchParams) => read(params, { beginDate: defaults.beginDate, endDate: defaults.endDate }), [defaults.beginDate, defaults.endDate]);
  return useUrlFilters(parse, write, KEPT);
}

/** The filters as the wire query (without page and size). */
export function toWire(f: ReportFilters, opts: { brands?: boolean } = {}): ReportWireQuery {
  const q: ReportWireQuery = {};
  for (const k of DATE_KEYS) q[k] = f[k];
  q.merId = f.merId;
  q.gwTranType = f.gwTranType;
  if (opts.brands && f.paymentBrand.length) q.paymentBrand = f.paymentBrand.join(',');
  return q;
}
