import { describe, expect, it } from 'vitest';
import { loginPath, safeRedirect } from './redirect';

describe('sign-in redirects', () => {
  it('carries the path and query to /login', () => {
    expect(loginPath({ pathname: '/notice/list', search: '?page=2&size=5' })).toBe('/login?redirect=%2Fnotice%2Flist%3Fpage%3D2%26size%3D5');
  });
  it.each([
    ['/notice/list?page=2', '/notice/list?page=2'],
    ['/txn/detail/42', '/txn/detail/42'],
    [null, '/'],
    ['', '/'],
    ['https://evil.example/', '/'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['/login?redirect=/x', '/'],
    ['javascript:alert(1)', '/'],
  ])('%s → %s', (raw, out) => {
    expect(safeRedirect(raw)).toBe(out);
  });
});
