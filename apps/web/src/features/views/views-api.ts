import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ViewsApi, type ViewScreenKey } from '@portal/contract';
import { http } from '../../lib/http';
import { apiQuery } from '../../lib/api-query';

/** Saved views (issue 13): /views calls, one hook each. */
/** One screen's views; key from the descriptor (['views', { screen }]), which a change to that screen's views invalidates. */
export const viewsQuery = (screen: ViewScreenKey) => apiQuery(ViewsApi.list, { screen });

export const useViews = (screen: ViewScreenKey | undefined, enabled: boolean) => useQuery({ ...viewsQuery(screen!), enabled: enabled && !!screen, staleTime: 30_000 });

/** GET /views/{id} — the link of a shared view. */
export const getView = (id: string) => http.call(ViewsApi.get, { id });

function useInvalidate(screen: ViewScreenKey) {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: viewsQuery(screen).queryKey });
}

export function useAddView(screen: ViewScreenKey) {
  const onSuccess = useInvalidate(screen);
  return useMutation({ mutationFn: (v: { name: string; query: string; shared: boolean }) => http.call(ViewsApi.add, { screen, ...v }), onSuccess });
}

export function useUpdateView(screen: ViewScreenKey) {
  const onSuccess = useInvalidate(screen);
  return useMutation({ mutationFn: ({ id, ...v }: { id: number; name?: string; query?: string; shared?: boolean }) => http.call(ViewsApi.update, { id, ...v }), onSuccess });
}

export function useRemoveView(screen: ViewScreenKey) {
  const onSuccess = useInvalidate(screen);
  return useMutation({ mutationFn: (id: number) => http.call(ViewsApi.remove, { id }), onSuccess });
}

export function useDefaultView(screen: ViewScreenKey) {
  const onSuccess = useInvalidate(screen);
  return useMutation({ mutationFn: (viewId: number | undefined) => http.call(ViewsApi.setDefault, { screen, viewId }), onSuccess });
}
