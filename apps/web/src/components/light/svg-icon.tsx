import type { IconDefinition } from '@ant-design/icons-svg/lib/types';

type Node = { tag: string; attrs: Record<string, string>; children?: Node[] };

/**
 * One of antd's outlined icons drawn from its SVG data alone: the same glyphs as the signed-in
 * screens, without antd's icon component (the sign-in page loads no antd, issue 16).
 */
export function SvgIcon({ icon, className }: { icon: IconDefinition; className?: string }) {
  const def = icon.icon as Node | ((primary: string, secondary: string) => Node);
  const root = typeof def === 'function' ? def('currentColor', 'currentColor') : def;
  const draw = (n: Node, key: number) => {
    const Tag = n.tag as 'path';
    return (
      <Tag key={key} {...n.attrs}>
        {n.children?.map(draw)}
      </Tag>
    );
  };
  return (
    <svg viewBox={root.attrs.viewBox} width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false" className={`svg-icon${className ? ` ${className}` : ''}`}>
      {root.children?.map(draw)}
    </svg>
  );
}
