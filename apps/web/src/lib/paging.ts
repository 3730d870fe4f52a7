import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { TablePaginationConfig } from 'antd';
import { pageItem } from './page-items';

/** Spec §9: page sizes 5/10/30/50/100, default 10; the page index sent to the server is 0-based. */
const PAGE_SIZES = [5, 10, 30, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 10;

/**
 * Page and size kept in the URL (`?page=2&size=30`, page 1-based there as people read it), so
 * reload, back and shared links keep the list where it was. Returns the 0-based `page` for the wire.
 */
export function usePageParams() {
  const [params, setParams] = useSearchParams();
  const rawSize = Number(params.get('size'));
  const size = (PAGE_SIZES as readonly number[]).includes(rawSize) ? rawSize : DEFAULT_PAGE_SIZE;
  const page = Math.max(0, (parseInt(params.get('page') ?? '1', 10) || 1) - 1);

  const setPage = useCallback(
    (nextPage: number, nextSize: number) =>
      setParams((prev) => {
        const out = new URLSearchParams(prev);
        out.set('page', String(nextSize !== size ? 1 : nextPage + 1));
        out.set('size', String(nextSize));
        return out;
      }),
    [setParams, size],
  );

  /** antd Table/List pagination bound to the URL. */
  const pagination = (total: number, extra: TablePaginationConfig = {}): TablePaginationConfig => ({
    current: page + 1,
    pageSize: size,
    total,
    pageSizeOptions: PAGE_SIZES.map(String),
    showSizeChanger: true,
    onChange: (p, s) => setPage(p - 1, s),
    // The page numbers' anchors (no href) marked presentational: not links to a crawler (issue 52).
    itemRender: pageItem,
    ...extra,
  });

  return { page, size, setPage, pagination };
}
