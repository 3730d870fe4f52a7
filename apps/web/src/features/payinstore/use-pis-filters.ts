import { DATE_RE, PBL_STATUS_FILTERS, STORE_ID_RE } from '@portal/contract';
import { useUrlFilters } from '../../lib/url-filters';
import type { PisWireQuery } from './api/orders';

/** The in-store list's filters as kept in the URL (spec §2): time range, store, status, order number. */
export interface PisFilters {
  beginDate?: string;
  endDate?: string;
  storeId?: string;
  status?: string;
  orderno?: string;
}
const KEYS = ['beginDate', 'endDate', 'storeId', 'status', 'orderno'] as const;

function valid(k: (typeof KEYS)[number], v: string): boolean {
  if (k === 'beginDate' || k === 'endDate') return DATE_RE.test(v);
  if (k === 'status') return (PBL_STATUS_FILTERS as readonly string[]).includes(v);
  if (k === 'storeId') return STORE_ID_RE.test(v);
  return v.length <= 64;
}

function read(params: URLSearchParams): PisFilters {
  const f: PisFilters = {};
  for (const k of KEYS) {
    const v = params.get(k)?.trim();
    if (v && valid(k, v)) f[k] = v;
  }
  return f;
}

function write(next: PisFilters, out: URLSearchParams) {
  for (const k of KEYS) if (next[k]) out.set(k, next[k]!);
}

export const usePisFilters = () => useUrlFilters(read, write);
export const toWire = (f: PisFilters): PisWireQuery => ({ ...f });
