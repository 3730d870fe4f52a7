import { DATE_RE, PBL_STATUS_FILTERS } from '@portal/contract';
import { useUrlFilters } from '../../lib/url-filters';
import type { PblWireQuery } from './api/get-pbl-list';

/** The list's filters as kept in the URL (spec §2): creation dates, order number, recon id, status. */
export interface PblFilters {
  beginDate?: string;
  endDate?: string;
  orderno?: string;
  reconId?: string;
  status?: string;
}
const KEYS = ['beginDate', 'endDate', 'orderno', 'reconId', 'status'] as const;

function valid(k: (typeof KEYS)[number], v: string): boolean {
  if (k === 'beginDate' || k === 'endDate') return DATE_RE.test(v);
  if (k === 'status') return (PBL_STATUS_FILTERS as readonly string[]).includes(v);
  return v.length <= 64;
}

function read(params: URLSearchParams): PblFilters {
  const f: PblFilters = {};
  for (const k of KEYS) {
    const v = params.get(k)?.trim();
    if (v && valid(k, v)) f[k] = v;
  }
  return f;
}

function write(next: PblFilters, out: URLSearchParams) {
  for (const k of KEYS) if (next[k]) out.set(k, next[k]!);
}

/** Reads and writes the filters (and page/size) in the URL, so reload, back and links keep them. */
export const usePblFilters = () => useUrlFilters(read, write);

export const toWire = (f: PblFilters): PblWireQuery => ({ ...f });
