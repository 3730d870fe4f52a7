import { QueryClient, type QueryFilters } from '@tanstack/react-query';

/**
 * For tests: the keys an invalidation's filter matches among these, found as invalidateQueries finds
 * them (the query cache's findAll), so a test asserts what a screen's refresh really reaches.
 */
export function matched(filter: QueryFilters, keys: readonly (readonly unknown[])[]): (readonly unknown[])[] {
  const qc = new QueryClient();
  for (const queryKey of keys) qc.getQueryCache().build(qc, { queryKey });
  return qc
    .getQueryCache()
    .findAll(filter)
    .map((q) => q.queryKey);
}
