import { SEARCH_KIND_PERMISSION, SEARCH_MAX_HITS, toDecimal, type SearchResult } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { searchIds } from './search.repo';

/**
 * Global search: the caller's pasted id looked up exactly across every record kind its
 * permissions show (transactions and refunds: txn:detail; pay links: paybylink:detail; in-store
 * orders: payinstore:list), in the merchants of its session's scope only. One statement; a record
 * matched by two of its ids is listed once.
 */
export async function search(deps: Deps, user: SessionUser, q: string): Promise<SearchResult> {
  const may = (p: string) => user.permissions.includes(p);
  const what = {
    txn: may(SEARCH_KIND_PERMISSION.txn),
    orderCategories: [...(may(SEARCH_KIND_PERMISSION.payByLink) ? ['paybylink'] : []), ...(may(SEARCH_KIND_PERMISSION.payInStore) ? ['payinstore'] : [])],
  };
  const rows = await searchIds(deps.db, user.scope, q, what, deps.config.platformTz, SEARCH_MAX_HITS);
  const seen = new Set<string>();
  const content = [];
  for (const r of rows) {
    const key = `${r.kind === 'refund' ? 'txn' : r.kind}:${r.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    content.push({
      kind: r.kind,
      match: r.match,
      id: Number(r.id),
      merId: r.mer_id,
      merName: r.mer_name,
      orderNo: r.order_no,
      type: r.type,
      status: r.status,
      amount: toDecimal(BigInt(r.amount), r.currency),
      currency: r.currency,
      time: r.time,
    });
  }
  return { content, totalElements: content.length };
}
