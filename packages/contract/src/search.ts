import { z } from 'zod';
import { Perm, type Permission } from './permissions';
import { textInput } from './input';

/**
 * Global search (issue 13): one exact-match look-up of a pasted id across every record kind the
 * caller may see, in the merchants of its session's scope. GET /api/search?q=.
 */
export const SEARCH_PATH = '/api/search';
/** The route needs at least one of these; each kind of hit is returned only with its own permission. */
export const SEARCH_PERMISSIONS: Permission[] = [Perm.txnDetail, Perm.payByLinkDetail, Perm.payInStoreList];
/** Longest id accepted (order numbers are at most 64 characters). */
export const SEARCH_MAX_LENGTH = 64;
/** At most this many hits are returned (exact ids: more than a handful means a shared order number). */
export const SEARCH_MAX_HITS = 20;

export const SEARCH_KINDS = ['txn', 'refund', 'payByLink', 'payInStore'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
/** The permission that shows each kind (and opens its detail screen). */
export const SEARCH_KIND_PERMISSION: Record<SearchKind, Permission> = {
  txn: Perm.txnDetail,
  refund: Perm.txnDetail,
  payByLink: Perm.payByLinkDetail,
  payInStore: Perm.payInStoreList,
};
/** Which id of the record matched. */
export const SEARCH_MATCHES = ['orderNo', 'channelOrderNo', 'gwTransId', 'refundId', 'payLinkOrderNo', 'invoiceId'] as const;
export type SearchMatch = (typeof SEARCH_MATCHES)[number];

export const searchQuerySchema = z.object({ q: textInput(SEARCH_MAX_LENGTH, { min: 1 }) });
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const searchHitSchema = z.object({
  kind: z.enum(SEARCH_KINDS),
  match: z.enum(SEARCH_MATCHES),
  /** The record's id: /txn/detail/:id, /payByLink/detail/:id, /payInStore/detail/:id. */
  id: z.number(),
  merId: z.string(),
  merName: z.string(),
  orderNo: z.string(),
  /** Transactions: tranType (PURC, REFD …); orders: status code. */
  type: z.string(),
  /** Transactions: gwResponse; orders: open status. */
  status: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  /** Platform zone, yyyy-MM-dd HH:mm:ss. */
  time: z.string(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;
export const searchResultSchema = z.object({ content: z.array(searchHitSchema), totalElements: z.number() });
export type SearchResult = z.infer<typeof searchResultSchema>;

/** The web route that shows a hit. */
export function searchHitPath(h: Pick<SearchHit, 'kind' | 'id'>): string {
  if (h.kind === 'payByLink') return `/payByLink/detail/${h.id}`;
  if (h.kind === 'payInStore') return `/payInStore/detail/${h.id}`;
  return `/txn/detail/${h.id}`;
}
