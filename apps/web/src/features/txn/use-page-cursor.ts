import { useEffect, useRef } from 'react';

/**
 * Keyset paging behind page/size (issue 16): remembers the last row id of every page shown for a
 * filter and size, so the request for the page after one already seen names it (`after`) and the
 * server reads from there — as cheap as page 1 however deep. A jump to a page not reached by Next,
 * a reload or a link has no cursor and is read by offset; the rows are the same either way.
 *
 * `after(page)` is read while rendering (the query's key); `useRemember` stores each page's last
 * id once its own rows (not the previous page's placeholder) have arrived.
 */
export function usePageCursor(filterKey: string, size: number) {
  const lastIds = useRef(new Map<string, string>());
  const key = (p: number) => `${filterKey}|${size}|${p}`;
  return {
    after: (page: number) => (page > 0 ? lastIds.current.get(key(page - 1)) : undefined),
    useRemember(page: number, list: { data?: { content: { id: number }[] }; isPlaceholderData: boolean }) {
      const rows = list.isPlaceholderData ? undefined : list.data?.content;
      const k = key(page);
      useEffect(() => {
        if (rows?.length) lastIds.current.set(k, String(rows[rows.length - 1].id));
      }, [rows, k]);
    },
  };
}
