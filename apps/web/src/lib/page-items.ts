import { cloneElement, isValidElement, type ReactNode } from 'react';

/**
 * A list's page numbers, as antd draws them, with `role="presentation"` on their anchors (issue 52,
 * Lighthouse SEO "Links are not crawlable"). antd draws each page as `<li tabindex="0"><a
 * rel="nofollow">3</a></li>`: the item is the control (its click, its key), the anchor has no href
 * and is no link to a crawler, to a screen reader, or to the keyboard. The role says so; it changes
 * nothing else (same element, classes and styles).
 */
export function pageItem(_page: number, _type: string, element: ReactNode): ReactNode {
  return isValidElement(element) && element.type === 'a' ? cloneElement(element as React.ReactElement<{ role?: string }>, { role: 'presentation' }) : element;
}
