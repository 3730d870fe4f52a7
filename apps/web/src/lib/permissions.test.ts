import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, LANGUAGES, MENU, routersFor, Perm, READ_ONLY_PERMISSIONS } from '@portal/contract';
import { flattenRouters, hasAny, menuTrail, pageRouters, pathMatches } from './permissions';
import { initialLanguage } from './i18n';

describe('permission helpers (spec §6)', () => {
  it('needs one of the listed permissions; none listed = anybody signed in', () => {
    expect(hasAny([Perm.txnList], [Perm.txnRefund, Perm.txnList])).toBe(true);
    expect(hasAny([Perm.txnList], Perm.txnRefund)).toBe(false);
    expect(hasAny([], null)).toBe(true);
    expect(hasAny(undefined, [])).toBe(true);
    expect(hasAny(undefined, Perm.txnList)).toBe(false);
  });

  it('finds the menu trail of a path, detail pages included', () => {
    const routers = routersFor([...READ_ONLY_PERMISSIONS]);
    expect(menuTrail(routers, '/txn/list').map((r) => r.name)).toEqual(['txn', 'txnList']);
    expect(menuTrail(routers, '/txn/detail/123').map((r) => r.name)).toEqual(['txn', 'txnDetail']);
    expect(menuTrail(routers, '/notice/list').map((r) => r.name)).toEqual(['notice']);
    expect(menuTrail(routers, '/nowhere')).toEqual([]);
    expect(pathMatches('/payByLink/detail/:id', '/payByLink/detail/9')).toBe(true);
    expect(pathMatches('/payByLink/detail/:id', '/payByLink/detail')).toBe(false);
  });

  it('every permission and its area has a readable name in the four languages (user info, team)', async () => {
    for (const lng of LANGUAGES) {
      const names = (await import(`../locales/${lng}/permissions.json`)).default as { group: Record<string, string>; perm: Record<string, string> };
      for (const p of ALL_PERMISSIONS) {
        expect(names.perm[p.replace(/:/g, '_')]?.trim(), `${lng}: ${p}`).toBeTruthy();
        expect(names.group[p.split(':')[0]]?.trim(), `${lng}: area of ${p}`).toBeTruthy();
      }
    }
  });

  it('lists pages (leaves) and every entry', () => {
    const pages = pageRouters(MENU).map((r) => r.path);
    expect(pages).toContain('/txn/detail/:id');
    expect(pages).not.toContain('/txn');
    expect(flattenRouters(MENU).map((r) => r.path)).toContain('/txn');
  });
});

describe('initial language (spec §2): cookie, else browser among en/zh/ko/ja, else en', () => {
  it.each([
    ['ko', ['ja-JP'], 'ko'],
    [undefined, ['fr-FR', 'ja-JP', 'en-US'], 'ja'],
    [undefined, ['zh-TW'], 'zh'],
    ['xx', ['de-DE'], 'en'],
    [undefined, [], 'en'],
  ] as const)('cookie %s, browser %j → %s', (cookie, browser, out) => {
    expect(initialLanguage(cookie, browser)).toBe(out);
  });
});
