import type { Plugin } from 'vite';

/**
 * Loads parts of antd components that our screens never render only when something renders them
 * (issue 16, target 6: the transaction list's JavaScript).
 *
 * An antd component imports, at its top, the parts that only some of its options draw: a Card
 * imports Tabs (drawn only with `tabList`), a Table the column filter dropdown with its Tree
 * (only for columns with `filters`) and Checkbox/Radio (only with `rowSelection`), Typography the
 * inline editor with its TextArea (only `editable`), Avatar the group with its Popover, a date
 * picker all its calendar panels (drawn only once its popup opens). The bundler
 * cannot know the option is never given, so every screen with a table or a card carried all of it:
 * about 70 KB gzip on the transaction list. Here, for those imports only (this importer, this
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
  /**
   * Also load it on the page's first interaction (the pointer moved, pressed, a key, a touch, a field
   * focused — not the focus a new page gives its heading):
   * for a part drawn the moment a person acts (a select's option list opens on the click or the key
   * that reaches it), so it is there by then. Not needed at first paint, not waited for after.
   */
  onInteraction?: boolean;
  /**
   * The importer drives the part through its ref (`ref.current.onKeyDown(event)`, as a select drives
   * its option list): keys given before the part has loaded are kept and handed to it, one per
   * frame, once it has — an Enter pressed the moment the list opens still chooses.
   */
  keys?: boolean;
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
  // Kinds a component carries as static members (`Input.OTP`, `Tag.CheckableTag`, `Card.Meta`,
  // `Statistic.Timer`) or draws only for an option (`<Table virtual>`); none is used on our screens.
  { importer: 'antd/es/table/InternalTable.js', source: './RcTable/VirtualTable', fallback: 'null' },
  { importer: 'antd/es/input/index.js', source: './OTP', fallback: 'null' },
  { importer: 'antd/es/tag/index.js', source: './CheckableTag', fallback: 'null' },
  { importer: 'antd/es/tag/index.js', source: './CheckableTagGroup', fallback: 'null' },
  { importer: 'antd/es/card/index.js', source: './CardGrid', fallback: 'null' },
  { importer: 'antd/es/card/index.js', source: './CardMeta', fallback: 'null' },
  { importer: 'antd/es/statistic/index.js', source: './Countdown', fallback: 'null' },
  { importer: 'antd/es/statistic/index.js', source: './Timer', fallback: 'null' },
  // The date pickers' calendar panels (date, time, month, year, decade, week, quarter): drawn in the
  // popup, which opens on a click; the input field, typing and the keyboard are the picker's own.
  { importer: '@rc-component/picker/es/PickerInput/RangePicker.js', source: './Popup', fallback: 'null' },
  { importer: '@rc-component/picker/es/PickerInput/SinglePicker.js', source: './Popup', fallback: 'null' },
  // A select's option list (with its virtual list, ~12 KB gzip): drawn when the select opens, never at
  // the first paint of a list screen (issue 52: the transaction list's 400 KB budget).
  { importer: '@rc-component/select/es/Select.js', source: './OptionList', fallback: 'null', onInteraction: true, keys: true },
];

/**
 * Packages whose modules only define things (no module-level effects) but do not say so in their
 * package.json (`sideEffects: false`): without it the bundler keeps a whole module graph for one
 * helper — the Table imports four tree helpers from @rc-component/tree's index, which kept the whole
 * Tree component (40 KB raw) on every table screen.
 */
export const PURE_PACKAGES = ['@rc-component/tree/es/', '@rc-component/picker/es/', '@rc-component/table/es/', '@rc-component/virtual-list/es/'];

/**
 * Code a module needs only inside an async function, imported there (one `await import()` on first
 * use) instead of at its top. Each edit must find its text (the build fails otherwise).
 */
export interface DeferredImport {
  /** The module, as the end of its path. */
  module: string;
  edits: { find: string; replace: string }[];
}

export const DEFERRED_IMPORTS: DeferredImport[] = [
  {
    // The form's rule checker (async-validator, 7 KB gzip): a filter form without rules never runs
    // it; a form with rules loads it on its first validation, which is asynchronous already.
    module: '@rc-component/form/es/utils/validateUtil.js',
    edits: [
      { find: "import RawAsyncValidator from '@rc-component/async-validator';\n", replace: '' },
      { find: 'const AsyncValidator = RawAsyncValidator;\n', replace: '' },
      {
        find: 'async function validateRule(name, value, rule, options, messageVariables) {\n',
        replace: "async function validateRule(name, value, rule, options, messageVariables) {\n  const AsyncValidator = (await import('@rc-component/async-validator')).default;\n",
      },
    ],
  },
];

/** `code` of a module with its deferred imports applied; throws when an edit no longer matches. */
export function deferImports(code: string, deferred: DeferredImport): string {
  let out = code.replace(/\r\n/g, '\n');
  for (const { find, replace } of deferred.edits) {
    if (!out.includes(find)) throw new Error(`lazy-parts: ${deferred.module} has changed (no ${JSON.stringify(find.slice(0, 60))})`);
    out = out.replace(find, replace);
  }
  return out;
}

const SUFFIX = '?lazy-part';
const norm = (p: string) => p.replace(/\\/g, '/').split('?')[0];

/** The module standing in for `part`, whose real module is `real` (an absolute id). */
export function lazyPartCode(part: LazyPart, real: string): string {
  const fallback = part.fallback === 'children' ? 'props.children' : 'null';
  const early = part.onInteraction
    ? [
        "const EARLY = ['pointermove', 'pointerdown', 'keydown', 'touchstart', 'focusin'];",
        'if (typeof window !== "undefined") {',
        '  const go = (e) => { if (e.type === "focusin" && !e.target?.closest?.(".ant-select, .ant-picker, input")) return; load(); for (const x of EARLY) window.removeEventListener(x, go, true); };',
        '  for (const e of EARLY) window.addEventListener(e, go, { capture: true, passive: true });',
        '}',
      ]
    : [];
  const body = part.keys
    ? [
        'const KEPT = ["which", "keyCode", "key", "code", "ctrlKey", "altKey", "metaKey", "shiftKey"];',
        'export default function LazyPart(props) {',
        '  const { ref, ...rest } = props;',
        '  const real = useRef(null);',
        '  const queue = useRef([]);',
        '  const flush = () => {',
        '    const next = queue.current.shift();',
        '    if (!next || !real.current) return;',
        '    real.current[next[0]]?.(next[1], ...next[2]);',
        '    if (queue.current.length) requestAnimationFrame(flush);',
        '  };',
        '  const keep = (method) => (event, ...rest) => {',
        '    if (real.current && !queue.current.length) return real.current[method]?.(event, ...rest);',
        '    const copy = { preventDefault() {}, stopPropagation() {} };',
        '    for (const k of KEPT) copy[k] = event[k];',
        // What the part would have done with the key at once: Enter, Tab and the arrows go no further.
        '    if (method === "onKeyDown" && [9, 13, 38, 40].includes(event.which)) event.preventDefault?.();',
        '    queue.current.push([method, copy, rest]);',
        '    if (real.current) requestAnimationFrame(flush);',
        '  };',
        '  useImperativeHandle(ref, () => ({ onKeyDown: keep("onKeyDown"), onKeyUp: keep("onKeyUp"), scrollTo: (...a) => real.current?.scrollTo?.(...a) }), []);',
        '  const setReal = (r) => {',
        '    const first = !real.current && r;',
        '    real.current = r;',
        '    if (first && queue.current.length) requestAnimationFrame(flush);',
        '  };',
        `  return createElement(Suspense, { fallback: ${fallback} }, createElement(Real, { ...rest, ref: setReal }));`,
        '}',
      ]
    : ['export default function LazyPart(props) {', `  return createElement(Suspense, { fallback: ${fallback} }, createElement(Real, props));`, '}'];
  return [
    `import { createElement, lazy, Suspense${part.keys ? ', useImperativeHandle, useRef' : ''} } from 'react';`,
    'let loading;',
    `const load = () => (loading ??= import(${JSON.stringify(real)}));`,
    'const Real = lazy(load);',
    ...early,
    ...body,
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
      const deferred = DEFERRED_IMPORTS.find((d) => path.endsWith(`/node_modules/${d.module}`));
      if (deferred) return { code: deferImports(code, deferred), map: null };
      if (!PURE_PACKAGES.some((p) => path.includes(`/node_modules/${p}`))) return null;
      return { code, map: null, moduleSideEffects: false };
    },
  };
}
