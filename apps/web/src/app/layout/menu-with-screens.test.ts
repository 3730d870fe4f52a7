import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, MENU, routersFor } from '@portal/contract';
import { flattenRouters } from '../../lib/permissions';
import { featureRoutes } from '../feature-routes';
import { menuWithScreens } from './menu-with-screens';

describe('side menu: only pages with a registered screen', () => {
  it('drops a page without a screen, and a group left empty', () => {
    const routers = [
      {
        path: '/a',
        name: 'a',
        children: [
          { path: '/a/x', name: 'x' },
          { path: '/a/y', name: 'y' },
        ],
      },
      { path: '/b', name: 'b', children: [{ path: '/b/z', name: 'z' }] },
      { path: '/c', name: 'c' },
    ];
    expect(menuWithScreens(routers, ['/a/x', '/c'])).toEqual([
      { path: '/a', name: 'a', children: [{ path: '/a/x', name: 'x' }] },
      { path: '/c', name: 'c' },
    ]);
  });

  it("keeps every page of the contract's menu that has its screen, and the developer keys", () => {
    const all = flattenRouters(routersFor(ALL_PERMISSIONS))
      .filter((r) => !r.children?.length)
      .map((r) => r.path);
    const kept = flattenRouters(menuWithScreens(routersFor(ALL_PERMISSIONS))).map((r) => r.path);
    for (const p of all) expect(kept.includes(p), p).toBe(featureRoutes.some((f) => f.path === p));
    expect(kept).toContain('/developers/keys');
    // Every menu page but the ones another feature adds later has its screen here.
    const missing = all.filter((p) => !kept.includes(p));
    expect(missing.every((p) => MENU.some((m) => m.children?.some((c) => c.path === p)))).toBe(true);
  });
});
