import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Pagination } from 'antd';
import { describe, expect, it } from 'vitest';
import { pageItem } from './page-items';

describe('page items (issue 52: no anchor without href that a crawler reads as a link)', () => {
  const render = (itemRender?: typeof pageItem) => renderToStaticMarkup(createElement(Pagination, { total: 500, current: 3, pageSize: 20, showSizeChanger: false, itemRender }));

  it("antd's own page anchors have no href and no role", () => {
    const html = render();
    expect(html).toMatch(/<a rel="nofollow">3<\/a>/);
  });

  it('every anchor of the pagination is marked presentational; nothing else changes', () => {
    const before = render();
    const after = render(pageItem);
    const anchors = [...after.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]);
    expect(anchors.length).toBeGreaterThan(5);
    for (const a of anchors) expect(a).toContain('role="presentation"');
    expect(after.replaceAll(' role="presentation"', '')).toBe(before);
  });
});
