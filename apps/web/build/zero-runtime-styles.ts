import { parseAst, type Plugin } from 'vite';

/**
 * antd's style generators out of the browser's scripts (issue 52: the transaction list's 400 KB
 * budget; decision 081).
 *
 * Each antd component declares its styles as `genStyleHooks('Button', styleFn, getDefaultToken,
 * options)` (also `genComponentStyleHook`, `genSubStyleComponent`): `styleFn` builds the
 * component's CSS from the theme's tokens. The portal renders with `theme.zeroRuntime` and takes
 * that CSS from the stylesheet written at build time (decision 031), so in the browser the hook
 * returns before it ever calls `styleFn` (@ant-design/cssinjs-utils, genStyleUtils.js:
 * `if (memoizedZeroRuntime) return hashId`). The functions were still bundled: a third of the antd
 * chunk (~200 KB raw, ~65 KB gzip on the list), never run (V8 coverage: 0–5 % of each style file).
 *
 * Here, in the client build only, that argument becomes `() => []`; the bundler then drops the
 * style functions and what only they use. `getDefaultToken` (the component's tokens, still
 * registered as CSS variables at run time) and every other argument stay as they are. The server
 * renderer and the build's own style extraction (antd-styles.ts, in Node) keep antd untouched.
 */
export const STYLE_HOOK_FACTORIES = ['genStyleHooks', 'genComponentStyleHook', 'genSubStyleComponent'] as const;

/** What each style function becomes: a style of nothing (the hook never calls it in zero-runtime mode). */
export const NO_STYLE = '() => []';

interface Node {
  type: string;
  start: number;
  end: number;
  [k: string]: unknown;
}

/** `[start, end]` of each style-function argument of a call of a style-hook factory. */
function styleArguments(code: string): [number, number][] {
  const out: [number, number][] = [];
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) walk(x);
      return;
    }
    const node = n as Node;
    if (node.type === 'CallExpression') {
      const callee = node.callee as Node & { name?: string };
      const args = node.arguments as Node[];
      if (callee.type === 'Identifier' && (STYLE_HOOK_FACTORIES as readonly string[]).includes(callee.name!) && args.length >= 2 && args[1].type !== 'SpreadElement') {
        out.push([args[1].start, args[1].end]);
        // Nested calls inside the replaced argument go with it; the other arguments are walked.
        walk(node.callee);
        walk(args[0]);
        walk(args.slice(2));
        return;
      }
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'type' && v && typeof v === 'object') walk(v);
  };
  walk(parseAst(code));
  return out;
}

/** The module with each style function replaced by {@link NO_STYLE}; null when it declares none. */
export function dropStyleFunctions(code: string): string | null {
  const ranges = styleArguments(code);
  if (!ranges.length) return null;
  let out = '';
  let at = 0;
  for (const [s, e] of ranges.sort((a, b) => a[0] - b[0])) {
    out += code.slice(at, s) + NO_STYLE;
    at = e;
  }
  return out + code.slice(at);
}

const ANTD = /[\\/]node_modules[\\/]antd[\\/]es[\\/].*\.js$/;

/** For the client build only (vite.config.ts): the browser renders antd in zero-runtime mode. */
export function zeroRuntimeStyles(): Plugin {
  return {
    name: 'portal:zero-runtime-styles',
    apply: 'build',
    transform(code, id) {
      if (!ANTD.test(id.split('?')[0]) || !/gen(StyleHooks|ComponentStyleHook|SubStyleComponent)\(/.test(code)) return null;
      const out = dropStyleFunctions(code);
      return out === null ? null : { code: out, map: null };
    },
  };
}
