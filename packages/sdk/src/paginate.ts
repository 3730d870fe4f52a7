import type { PortalClient } from './client';
import { PortalApiError } from './client';
import type { CursorPath, CursorQuery, ItemOf, PagedItemOf, PagedPath, PagedQuery, Schemas } from './types';

type Loose = (path: string, init: { params: { query: Record<string, unknown> } }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * Every item of a cursor list, page after page (`next_cursor` passed as `cursor`) until `has_more`
 * is false: `for await (const t of paginate(api, '/v1/transactions', { limit: 100 })) …`. The pages
 * are keyset pages: a row added meanwhile shifts nothing (no item twice, none skipped). A refusal
 * throws a PortalApiError.
 */
export async function* paginate<P extends CursorPath>(client: PortalClient, path: P, query?: CursorQuery<P>): AsyncGenerator<ItemOf<P>, void, undefined> {
  const get = client.GET as unknown as Loose;
  let cursor: string | null = null;
  do {
    const q: Record<string, unknown> = { ...(query as object), ...(cursor ? { cursor } : {}) };
    const r = await get(path, { params: { query: q } });
    if (r.error !== undefined || !r.data) throw new PortalApiError(r.response.status, r.error as Schemas['Error']);
    const page = r.data as { data: ItemOf<P>[]; has_more: boolean; next_cursor: string | null };
    yield* page.data;
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
}

/**
 * Every item of a numbered list (settlements, transfers: `page` 0-based, `size`, `total`), page after
 * page until `total` items were given or a page comes back short.
 */
export async function* paginatePages<P extends PagedPath>(client: PortalClient, path: P, query: PagedQuery<P>): AsyncGenerator<PagedItemOf<P>, void, undefined> {
  const get = client.GET as unknown as Loose;
  const size = Number((query as { size?: number }).size ?? 10);
  let given = 0;
  for (let page = 0; ; page++) {
    const r = await get(path, { params: { query: { ...(query as object), page, size } } });
    if (r.error !== undefined || !r.data) throw new PortalApiError(r.response.status, r.error as Schemas['Error']);
    const out = r.data as { data: PagedItemOf<P>[]; total: number };
    yield* out.data;
    given += out.data.length;
    if (out.data.length < size || given >= out.total) return;
  }
}

/** The items of a cursor list as an array (at most `max`, default 10 000). */
export async function listAll<P extends CursorPath>(client: PortalClient, path: P, query?: CursorQuery<P>, max = 10_000): Promise<ItemOf<P>[]> {
  const out: ItemOf<P>[] = [];
  for await (const item of paginate(client, path, query)) {
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
}
