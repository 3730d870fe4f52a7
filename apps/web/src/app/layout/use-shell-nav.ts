import { useMemo } from 'react';
import { useLocation } from 'react-router';
import type { RouterItem } from '@portal/contract';
import { menuTrail, pathMatches } from '../../lib/permissions';
import type { Nav, TrailItem } from '../../lib/nav';
import { featureRoutes } from '../feature-routes';

const toTrail = (items: RouterItem[]): TrailItem[] => items.map((r) => ({ name: r.name, path: r.children?.length || r.path.includes(':') ? undefined : r.path }));

/** The trail of the current location: from the server's routers, else from the registry's title/parent. */
export function useShellNav(routers: RouterItem[]): Nav {
  const { pathname } = useLocation();
  return useMemo(() => {
    const menu = menuTrail(routers, pathname);
    let trail: TrailItem[] = toTrail(menu);
    let visible = menu.filter((r) => !r.hidden);
    if (!menu.length) {
      const entry = featureRoutes.find((r) => r.title && pathMatches(r.path, pathname));
      if (entry) {
        const parent = entry.parent ? menuTrail(routers, entry.parent) : [];
        trail = [...toTrail(parent), { name: entry.title! }];
        visible = parent.filter((r) => !r.hidden);
      }
    }
    const last = visible.at(-1);
    return {
      trail,
      selectedKey: last && !last.children?.length ? last.path : undefined,
      openKeys: visible.filter((r) => r.children?.length).map((r) => r.path),
    };
  }, [routers, pathname]);
}
