import { createContext, useContext } from 'react';

/** One step of the current page's trail: a `menu` namespace key and, when it is a page, its path. */
export interface TrailItem {
  name: string;
  path?: string;
}

export interface Nav {
  /** Parents first; the last item is the current page. Empty on pages outside the menu (404). */
  trail: TrailItem[];
  /** The menu entry to highlight. */
  selectedKey?: string;
  /** Submenus to open. */
  openKeys: string[];
}

export const NavContext = createContext<Nav>({ trail: [], openKeys: [] });

/** Where the user is, as the shell's menu and breadcrumb see it. */
export function useNav(): Nav {
  return useContext(NavContext);
}
