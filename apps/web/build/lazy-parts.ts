import type { Plugin } from 'vite';

/**
 * Loads parts of antd components that our screens never render only when something renders them
 * (issue 16, target 6: the transaction list's JavaScript).
 *
 * An antd component imports, at its top, the parts that only some of its options draw: a Card
 * imports Tabs (drawn only with `tabList`), a Table the column filter dropdown with its Tree
 * (only for columns with `filters`) and Checkbox/Radio (only with `rowSelection`), Typography the
 * inline editor with its TextArea (only `editable`), Avatar the group with its Popover. The bundler
 * cannot know the option is never given, so every screen with a table or a card carried all of it:
 * about 60 KB gzip on the transaction list. Here, for those imports only (this importer, this
 * specifier), the part is replaced by a small module that loads the real one with `import()` when
 * it is first rendered. Nothing is removed: a screen that does use the option gets it, one frame
 * later, drawn in the meantime as `fallback` (the column title for the filter, else nothing).
 */
export interface LazyPart {
  /** The importing antd module, as the end of its path. */
  importer: string;
  /** The import specifier in that module. */
  source: string;
  /** While the real part loads: nothing, or the element's children (a wrapper around them). */
  fallback: 'null' | 'children';
  /** Extra code for named exports the importer also takes from the part (kept small and synchronous). */
  named?: string;
}

export const LAZY_PARTS: LazyPart[] = [
  {
    importer: 'antd/es/table/hooks/useFilter/index.js',
    source: './FilterDropdown',
    fallback: 'children',
    // antd's own helper (FilterDropdown.js), used by the table's filter state even without filters.
    named: `export function flattenKeys(filters) {
  let keys = [];
  (filters || []).forEach(({ value, children }) => {
    keys.push(value);
    if (children) keys = [...keys, ...flattenKeys(children)];
  });
  return keys;
}`,
  },
  { importer: 'antd/es/table/hooks/useSelection.js', source: '../../checkbox', fallback: 'null' },
  { importer: 'antd/es/table/hooks/useSelection.js', source: '../../radio', fallback: 'null' },
  { importer: 'antd/es/card/Card.js', source: '../tabs', fallback: 'null' },
  { importer: 'antd/es/typography/Base/index.js', source: '../Editable', fallback: 'null' },
  { importer: 'antd/es/avatar/index.js', source: './AvatarGroup', fallback: 'null' },
];

/**
 * Packages whose modules only define things (no module-level effects) but do not say so in their
 * package.json (`sideEffects: false`): without it the bundler keeps a whole module graph for one
 * helper — the Table imports four tree helpers from @rc-component/tree's index, which kept the whole
 * Tree component (40 KB raw) on every table screen.
 */
export const PURE_PACKAGES = ['@rc-component/tree/es/'];

const SUFFIX = '?lazy-part';
const norm = (p: string) => p.replace(/\\/g, '/').split('?')[0];

/** The module standing in for `part`, whose real module is `real` (an absolute id). */
export function lazyPartCode(part: LazyPart, real: string): string {
  const fallback = part.fallback === 'children' ? 'props.children' : 'null';
  return [
    "import { createElement, lazy, Suspense } from 'react';",
    `const Real = lazy(() => import(${JSON.stringify(real)}));`,
    'export default function LazyPart(props) {',
    `  return createElement(Suspense, { fallback: ${fallback} }, createElement(Real, props));`,
    '}',
    part.named ?? '',
  ].join('\n');
}

export function lazyParts(parts: LazyPart[] = LAZY_PARTS): Plugin {
  const reals = new Map<string, { part: LazyPart; real: string }>();
  return {
    name: 'portal:lazy-parts',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer) return null;
      const from = norm(importer);
      const part = parts.find((p) => p.source === source && from.endsWith(`/node_modules/${p.importer}`));
      if (!part) return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      if (!resolved) return null;
      // Beside the real file (so its own imports, React, resolve as from there), marked by a query.
      const id = `${resolved.id}${SUFFIX}`;
      reals.set(id, { part, real: resolved.id });
      return id;
    },
    load(id) {
      const entry = reals.get(id);
      return entry ? { code: lazyPartCode(entry.part, entry.real), moduleSideEffects: false } : null;
    },
    transform(code, id) {
      const path = norm(id);
      if (!PURE_PACKAGES.some((p) => path.includes(`/node_modules/${p}`))) return null;
      return { code, map: null, moduleSideEffects: false };
    },
  };
}
