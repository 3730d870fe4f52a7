import { describe, expect, it } from 'vitest';
import { MENU, type MenuEntry } from './permissions';
import { VIEW_SCREENS, VIEW_SCREEN_KEYS, viewQueryOf, viewQueryProblem, viewScreenOf } from './views';

/** Menu screens whose URL holds no filters to name (what each one is instead). */
const WITHOUT_FILTERS: Record<string, string> = {
  '/dashboard': 'fixed figures of today and the last days',
  '/txn/manualBlend': 'an upload tool',
  '/report/file': "the user's own exports, newest first",
  '/report/schedules': "the user's schedules",
  '/payInStore/store': 'every store of the merchant',
  '/payInStore/cashier': 'one store picker, kept in the URL already',
  '/notice/list': 'notices, newest first',
  '/developers/webhooks': "the merchant's webhook endpoints (a handful)",
  '/developers/keys': "the merchant's API keys, newest first",
  '/merchant/approvals': 'four-eyes requests: one status filter, the waiting ones first (issue 28)',
  // Issue 49 §2.
  '/bankrec': 'statement upload and the matching screen of one period (no saved views yet)',
  // Issue 51: a settings screen (identity providers, domains, the policy), not a list.
  '/merchant/sso': 'sign-in settings: providers, mappings, domains and the policy',
};
const leaves = (entries: MenuEntry[]): MenuEntry[] => entries.flatMap((e) => (e.children ? leaves(e.children) : [e]));

describe('saved view query strings', () => {
  it("accepts a plain query string of the screen's keys", () => {
    expect(viewQueryProblem('txn.list', '')).toBeNull();
    expect(viewQueryProblem('txn.list', 'begin=2026-11-01+00%3A00%3A00&gwResponse=00&paymentBrand=visa%2Cjcb&tz=8')).toBeNull();
    expect(viewQueryProblem('report.txn', 'version=old&beginDate=2026-11-01')).toBeNull();
  });

  it.each([
    ['unknown key', 'evil=1'],
    ['page is not a filter', 'page=2'],
    ["another screen's key", 'reconId=INV-1'],
    ['repeated key', 'tz=8&tz=9'],
    ['leading ?', '?tz=8'],
    ['fragment', 'tz=8#x'],
    ['bare key', 'tz'],
    ['two =', 'tz=8=9'],
    ['bad percent-encoding', 'orderNum=%E0%A4%A'],
    ['encoded control character', 'orderNum=a%0Ab'],
    ['raw control character', 'orderNum=a\u0001b'],
    ['long value', `orderNum=${'x'.repeat(201)}`],
    ['long query', `orderNum=${'x'.repeat(200)}&merReserve=${'x'.repeat(200)}&channelOrderNum=${'x'.repeat(200)}&originOrderNum=${'x'.repeat(200)}&gwTranType=${'x'.repeat(200)}`],
  ])('refuses %s', (_, q) => {
    expect(viewQueryProblem('txn.list', q)).not.toBeNull();
  });

  it("keeps only the screen's own filters of a URL, sorted, without page or view", () => {
    expect(viewQueryOf('payByLink.list', '?page=3&view=7&status=00&orderno=A1&size=30&evil=1')).toBe('orderno=A1&size=30&status=00');
    expect(viewScreenOf('/txn/list')).toBe('txn.list');
    expect(viewScreenOf('/txn/detail/1')).toBeUndefined();
  });
});

describe('screens with views', () => {
  it('every list and report screen of the menu keeps views, under the permission that opens it', () => {
    const screens = leaves(MENU).filter((e) => !e.path.includes(':') && !(e.path in WITHOUT_FILTERS));
    expect(screens.length).toBeGreaterThan(10);
    for (const e of screens) {
      const key = viewScreenOf(e.path);
      expect(key, e.path).toBeDefined();
      expect(VIEW_SCREENS[key!].permission, e.path).toBe(e.permission);
    }
  });

  it('no screen keeps page or view as a filter, and none repeats a key', () => {
    for (const k of VIEW_SCREEN_KEYS) {
      const keys: readonly string[] = VIEW_SCREENS[k].keys;
      expect(keys, k).not.toContain('page');
      expect(keys, k).not.toContain('view');
      expect(new Set(keys).size, k).toBe(keys.length);
    }
  });
});
