import { describe, expect, it } from 'vitest';
import { viewQueryOf, viewQueryProblem, viewScreenOf } from './views';

describe('saved view query strings', () => {
  it('accepts a plain query string of the screen\'s keys', () => {
    expect(viewQueryProblem('txn.list', '')).toBeNull();
    expect(viewQueryProblem('txn.list', 'begin=2026-11-01+00%3A00%3A00&gwResponse=00&paymentBrand=visa%2Cjcb&tz=8')).toBeNull();
    expect(viewQueryProblem('report.txn', 'version=old&beginDate=2026-11-01')).toBeNull();
  });

  it.each([
    ['unknown key', 'evil=1'],
    ['page is not a filter', 'page=2'],
    ['another screen\'s key', 'reconId=INV-1'],
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

  it('keeps only the screen\'s own filters of a URL, sorted, without page or view', () => {
    expect(viewQueryOf('payByLink.list', '?page=3&view=7&status=00&orderno=A1&size=30&evil=1')).toBe('orderno=A1&size=30&status=00');
    expect(viewScreenOf('/txn/list')).toBe('txn.list');
    expect(viewScreenOf('/txn/detail/1')).toBeUndefined();
  });
});
