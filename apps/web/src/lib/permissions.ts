import type { RouterItem } from '@portal/contract';

export type PermissionNeed = string | readonly string[] | null | undefined;

/** True when `held` holds at least one of `need` (no need = anybody signed in). Spec §6. */
export function hasAny(held: readonly string[] | undefined, need: PermissionNeed): boolean {
  if (!need || (Array.isArray(need) && need.length === 0)) return true;
  const list = typeof need === 'string' ? [need] : need;
  return !!held && list.some((p) => held.includes(p));
}

/** Every router entry, depth first (parents before their children). */
export function flattenRouters(routers: readonly RouterItem[]): RouterItem[] {
  return routers.flatMap((r) => [r, ...(r.children ? flattenRouters(r.children) : [])]);
}

/** Router entries that are pages (leaves), including hidden ones such as detail pages. */
export function pageRouters(routers: readonly RouterItem[]): RouterItem[] {
  return flattenRouters(routers).filter((r) => !r.children?.length);
}

function matches(pattern: string, pathname: string): boolean {
  const a = pattern.split('/').filter(Boolean);
  const b = pathname.split('/').filter(Boolean);
  return a.length === b.length && a.every((seg, i) => seg.startsWith(':') || seg === b[i]);
}

/** The menu trail (parents first) leading to `pathname`, for the breadcrumb and the open submenu. */
export function menuTrail(routers: readonly RouterItem[], pathname: string): RouterItem[] {
  for (const r of routers) {
    if (r.children?.length) {
      const sub = menuTrail(r.children, pathname);
      if (sub.length) return [r, ...sub];
    } else if (matches(r.path, pathname)) return [r];
  }
  return [];
}

export { matches as pathMatches };
