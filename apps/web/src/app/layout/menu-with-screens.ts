import type { RouterItem } from '@portal/contract';
import { featureRoutes } from '../feature-routes';

/**
 * The side menu's entries: the server's routers less the pages no screen is registered for
 * (feature-routes.tsx) and the groups left empty by that. The server may name a page before this
 * build has its screen (the contract's MENU is shared by features built apart, e.g. Developers →
 * Webhooks): it stays out of the menu instead of leading to the 404.
 */
export function menuWithScreens(routers: RouterItem[], registered: readonly string[] = featureRoutes.map((r) => r.path)): RouterItem[] {
  const out: RouterItem[] = [];
  for (const r of routers) {
    if (r.children?.length) {
      const children = menuWithScreens(r.children, registered);
      if (children.length) out.push({ ...r, children });
    } else if (registered.includes(r.path)) out.push(r);
  }
  return out;
}
