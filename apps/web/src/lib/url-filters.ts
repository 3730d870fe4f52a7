import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { usePageParams } from './paging';

const SIZE_ONLY = ['size'] as const;

/**
 * A list's filters kept in the URL beside its page and size, so reload, back and shared links keep
 * them. `read` parses the URL (keep it stable: a module function or a memoised callback); a search
 * (`apply`) writes the parameters named in `keep` back as they were, `page=1`, then `write`'s
 * filters — `apply(null)` clears every filter.
 */
export function useUrlFilters<F>(read: (params: URLSearchParams) => F, write: (next: F, out: URLSearchParams) => void, keep: readonly string[] = SIZE_ONLY) {
  const [params, setParams] = useSearchParams();
  const paging = usePageParams();
  const filters = useMemo(() => read(params), [params, read]);

  /** A search: new filters (or none), back to the first page. */
  const apply = useCallback(
    (next: F | null) =>
      setParams((prev) => {
        const out = new URLSearchParams();
        for (const k of keep) if (prev.get(k)) out.set(k, prev.get(k)!);
        out.set('page', '1');
        if (next) write(next, out);
        return out;
      }),
    [setParams, write, keep],
  );

  return { filters, apply, ...paging };
}
