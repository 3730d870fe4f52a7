import { z } from 'zod';
import { Perm, type Permission } from './permissions';
import { hasControlChars, textInput } from './input';

/**
 * Saved views (issue 13): a user names the filters of a list or report screen (its URL query
 * string) and keeps them; a view may be shared with the team and one may be the user's default of
 * a screen. Each screen says which permission opens it and which URL keys its filters use; the
 * server stores only query strings made of those keys.
 */
export interface ViewScreen {
  /** The web route of the screen. */
  path: string;
  permission: Permission;
  /** URL parameters the screen's filters (and page size) use. */
  keys: readonly string[];
}

const REPORT_KEYS = ['beginDate', 'endDate', 'remitBeginDate', 'remitEndDate', 'releaseBeginDate', 'releaseEndDate', 'merId', 'gwTranType', 'paymentBrand', 'size'] as const;

export const VIEW_SCREENS = {
  'txn.list': {
    path: '/txn/list',
    permission: Perm.txnList,
    keys: ['tz', 'begin', 'end', 'merId', 'orderNum', 'channelOrderNum', 'originOrderNum', 'gwTranType', 'gwResponse', 'merReserve', 'paymentBrand', 'size'],
  },
  'settle.list': { path: '/txn/settleList', permission: Perm.settleList, keys: ['beginDate', 'endDate', 'busLine', 'setCur', 'clientid', 'size'] },
  'settle.detail': { path: '/txn/settleDetail', permission: Perm.settleDetail, keys: ['beginDate', 'endDate', 'merId', 'busLine', 'setCur', 'size'] },
  'logistics.list': { path: '/txn/logistics', permission: Perm.logisticsList, keys: ['merId', 'orderNum', 'shipmentNo', 'beginDate', 'endDate', 'size'] },
  'payByLink.list': { path: '/payByLink/list', permission: Perm.payByLinkList, keys: ['beginDate', 'endDate', 'orderno', 'reconId', 'status', 'size'] },
  'payInStore.list': { path: '/payInStore/list', permission: Perm.payInStoreList, keys: ['beginDate', 'endDate', 'storeId', 'status', 'orderno', 'size'] },
  'files.documents': { path: '/files', permission: Perm.filesDownload, keys: ['kind', 'periodFrom', 'periodTo', 'currency', 'size'] },
  'merchant.list': { path: '/merchant/list', permission: Perm.merchantList, keys: ['keyword', 'attribute', 'size'] },
  'merchant.user': { path: '/merchant/user', permission: Perm.merchantUser, keys: ['merId', 'status', 'text', 'size'] },
  'merchant.audit': { path: '/merchant/audit', permission: Perm.merchantAudit, keys: ['beginDate', 'endDate', 'userName', 'eventType', 'size'] },
  'report.txn': { path: '/report/txn', permission: Perm.reportTxn, keys: [...REPORT_KEYS, 'version'] },
  'report.bill': { path: '/report/bill', permission: Perm.reportBill, keys: REPORT_KEYS },
  'report.transfer': { path: '/report/transfer', permission: Perm.reportTransfer, keys: REPORT_KEYS },
  'report.reserve': { path: '/report/reserve', permission: Perm.reportReserve, keys: REPORT_KEYS },
  // Issue 48: the disputes inbox.
  'disputes.list': {
    path: '/disputes/list',
    permission: Perm.disputeView,
    keys: ['state', 'kind', 'reasonCode', 'brand', 'merId', 'currency', 'amountMin', 'amountMax', 'deadlineBefore', 'beginDate', 'endDate', 'size'],
  },
} as const satisfies Record<string, ViewScreen>;
export type ViewScreenKey = keyof typeof VIEW_SCREENS;
export const VIEW_SCREEN_KEYS = Object.keys(VIEW_SCREENS) as ViewScreenKey[];

/** The screen a web path shows, if views are kept for it. */
export const viewScreenOf = (pathname: string): ViewScreenKey | undefined => VIEW_SCREEN_KEYS.find((k) => VIEW_SCREENS[k].path === pathname);

export const VIEWS_PATH = '/api/views';
export const VIEW_NAME_MAX = 40;
/** The longest stored query string (characters) and value. */
export const VIEW_QUERY_MAX = 1000;
export const VIEW_VALUE_MAX = 200;
/** Views one user may keep per screen. */
export const VIEWS_PER_SCREEN = 50;

/** Why a query string is refused (null when it is a plain query string of the screen's keys). */
export function viewQueryProblem(screen: ViewScreenKey, query: string): string | null {
  if (query.length > VIEW_QUERY_MAX) return `at most ${VIEW_QUERY_MAX} characters`;
  if (query.startsWith('?') || query.includes('#')) return 'a query string without ? or #';
  if (hasControlChars(query)) return 'must not contain control characters';
  let params: URLSearchParams;
  try {
    // Every part must be key=value with valid percent-encoding.
    for (const part of query ? query.split('&') : []) {
      if (!/^[A-Za-z]+=[^=]*$/.test(part)) return `not a plain key=value pair: ${part.slice(0, 40)}`;
      decodeURIComponent(part.replace(/\+/g, ' '));
    }
    params = new URLSearchParams(query);
  } catch {
    return 'malformed percent-encoding';
  }
  const allowed: readonly string[] = VIEW_SCREENS[screen].keys;
  const seen = new Set<string>();
  for (const [k, v] of params) {
    if (!allowed.includes(k)) return `unknown filter: ${k}`;
    if (seen.has(k)) return `repeated filter: ${k}`;
    seen.add(k);
    if (v.length > VIEW_VALUE_MAX || hasControlChars(v)) return `bad value of ${k}`;
  }
  return null;
}

/** The screen's own filters of a URL query string: page and foreign keys dropped, sorted. */
export function viewQueryOf(screen: ViewScreenKey, search: string): string {
  const allowed: readonly string[] = VIEW_SCREENS[screen].keys;
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(search)) if (allowed.includes(k) && !out.has(k)) out.set(k, v);
  out.sort();
  return out.toString();
}

const screenSchema = z.enum(VIEW_SCREEN_KEYS as [ViewScreenKey, ...ViewScreenKey[]]);
const boolish = z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')]);

export const viewListQuerySchema = z.object({ screen: screenSchema });
export const viewIdParamSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** Create (form or JSON). The server checks the query string against the screen's keys (viewQueryProblem). */
export const viewBodySchema = z.object({
  screen: screenSchema,
  name: textInput(VIEW_NAME_MAX, { min: 1 }),
  /** '' (or left out: a form post omits empty fields) = the screen without filters. */
  query: z
    .string()
    .max(VIEW_QUERY_MAX * 3)
    .optional()
    .default(''),
  shared: boolish.optional().default(false),
});
export type ViewBody = z.infer<typeof viewBodySchema>;
export const viewUpdateSchema = z.object({
  name: textInput(VIEW_NAME_MAX, { min: 1 }).optional(),
  query: z
    .string()
    .max(VIEW_QUERY_MAX * 3)
    .optional(),
  shared: boolish.optional(),
});
export type ViewUpdate = z.infer<typeof viewUpdateSchema>;
/** Sets (viewId) or clears (no viewId) the caller's default view of a screen. */
export const viewDefaultSchema = z.object({ screen: screenSchema, viewId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional() });

export const savedViewSchema = z.object({
  id: z.number(),
  screen: z.string(),
  name: z.string(),
  query: z.string(),
  shared: z.boolean(),
  /** The caller owns it (may rename, change, share or delete it). */
  mine: z.boolean(),
  ownerName: z.string(),
  isDefault: z.boolean(),
  updatedAt: z.string(),
});
export type SavedView = z.infer<typeof savedViewSchema>;
export const savedViewListSchema = z.object({ content: z.array(savedViewSchema), totalElements: z.number() });
