import { DATETIME_RE } from '@portal/contract';
import { dayjs, defaultOffset, PLATFORM_TZ, platformInstant, toPlatform, WIRE_DATETIME } from '../../lib/time';
import { useUrlFilters } from '../../lib/url-filters';
import type { TxnWireQuery } from './api/get-txn-list';

/** The list's filters as kept in the URL: times are wall-clock in the chosen zone `tz` (hours). */
export interface TxnFilters {
  tz: number;
  begin: string;
  end: string;
  merId?: string;
  orderNum?: string;
  channelOrderNum?: string;
  originOrderNum?: string;
  gwTranType?: string;
  gwResponse?: string;
  merReserve?: string;
  /** The UI's brand array (spec: paymentBrand1), sent comma-joined as paymentBrand. */
  paymentBrand: string[];
}

const TEXT_KEYS = ['merId', 'orderNum', 'channelOrderNum', 'originOrderNum', 'gwTranType', 'gwResponse', 'merReserve'] as const;

/** The default period: the last 7 days in zone `tz`, whole days. */
export function defaultPeriod(tz: number): { begin: string; end: string } {
  const now = dayjs.utc().add(tz * 60, 'minute');
  return { begin: now.subtract(6, 'day').format('YYYY-MM-DD 00:00:00'), end: now.format('YYYY-MM-DD 23:59:59') };
}

const isWall = (s: string | null): s is string => !!s && DATETIME_RE.test(s) && dayjs(s).isValid();

function read(params: URLSearchParams): TxnFilters {
  const tzRaw = Number(params.get('tz'));
  const tz = params.has('tz') && Number.isInteger(tzRaw) && tzRaw >= -12 && tzRaw <= 14 ? tzRaw : defaultOffset();
  const d = defaultPeriod(tz);
  const f: TxnFilters = {
    tz,
    begin: isWall(params.get('begin')) ? params.get('begin')! : d.begin,
    end: isWall(params.get('end')) ? params.get('end')! : d.end,
    paymentBrand: (params.get('paymentBrand') ?? '').split(',').filter(Boolean),
  };
  for (const k of TEXT_KEYS) {
    const v = params.get(k);
    if (v) f[k] = v;
  }
  return f;
}

function write(next: TxnFilters, out: URLSearchParams) {
  out.set('tz', String(next.tz));
  out.set('begin', next.begin);
  out.set('end', next.end);
  for (const k of TEXT_KEYS) if (next[k]) out.set(k, next[k]!);
  if (next.paymentBrand.length) out.set('paymentBrand', next.paymentBrand.join(','));
}

/** Reads and writes the filters (and page/size) in the URL, so reload, back and links keep them. */
export const useTxnFilters = () => useUrlFilters(read, write);

/** The filters as the wire query of spec §3: times converted to the platform zone. */
export function toWire(f: TxnFilters): TxnWireQuery {
  const q: TxnWireQuery = {
    beginDate: toPlatform(f.begin, f.tz),
    endDate: toPlatform(f.end, f.tz),
    beginDateOriginal: f.begin,
    endDateOriginal: f.end,
    timeZone: String(f.tz),
    paymentBrand: f.paymentBrand.length ? f.paymentBrand.join(',') : undefined,
  };
  for (const k of TEXT_KEYS) q[k] = f[k];
  return q;
}

/** A platform-zone wire time shown in the zone `tz` hours east of UTC. */
export function platformToOffset(value: string, tz: number): string {
  // Read by hand, not by dayjs's tz() parse, which goes through the machine's own zone (a page
  // rendered on the server, decision 050, must show what the browser shows).
  const instant = platformInstant(value) ?? dayjs.tz(value, PLATFORM_TZ).valueOf();
  return dayjs.utc(instant + tz * 3_600_000).format(WIRE_DATETIME);
}
