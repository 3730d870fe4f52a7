import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { SavedView } from '@portal/contract';
import { getView } from './views-api';

/** The URL of a view: its filters plus `view=<id>` (which a search drops, as it changes the filters). */
export const viewSearch = (v: Pick<SavedView, 'id' | 'query'>) => {
  const out = new URLSearchParams(v.query);
  out.set('view', String(v.id));
  return out;
};

/**
 * Applies a view from the URL: a shared link (`?view=<id>` alone) is fetched and opened; a screen
 * opened without any parameter gets the user's default view (a cleared filter keeps `page=1`, so
 * it stays cleared). A link is fetched once per id.
 */
export function useViewUrl(views: SavedView[] | undefined) {
  const [params, setParams] = useSearchParams();
  const applied = useRef<string | null>(null);
  const viewId = params.get('view');
  const onlyView = !!viewId && [...params.keys()].every((k) => k === 'view');
  const empty = params.toString() === '';

  useEffect(() => {
    if (!onlyView || applied.current === viewId) return;
    applied.current = viewId;
    getView(viewId!).then(
      (v) => setParams(viewSearch(v), { replace: true }),
      () => undefined, // the request client said why (not found, no permission)
    );
  }, [onlyView, viewId, setParams]);

  const fallback = views?.find((v) => v.isDefault);
  useEffect(() => {
    // Never loops: the view's URL is never empty (it names the view).
    if (!empty || !fallback) return;
    setParams(viewSearch(fallback), { replace: true });
  }, [empty, fallback, setParams]);

  return { viewId, setParams };
}
