import { useEffect, useRef } from 'react';

/**
 * A table's sideways-scrolling region takes the keyboard focus, named (arrow keys scroll it; WCAG
 * 2.1.1 — axe 'scrollable-region-focusable' when a page has no link or button inside the table).
 * Returns the ref of an element around the table.
 */
export function useFocusableScroll<T extends HTMLElement = HTMLDivElement>(label: string) {
  const frame = useRef<T>(null);
  useEffect(() => {
    frame.current?.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body').forEach((el) => {
      el.tabIndex = 0;
      el.setAttribute('role', 'region');
      el.setAttribute('aria-label', label);
    });
  });
  return frame;
}
