import { parseAst, type Plugin } from 'vite';

/**
 * The server renderer (dist-ssr/entry-server.js) without an `import(…)` expression of its own
 * (issue 52, memory at rest): each one becomes a call of `dynamicImport` from a helper module beside
 * it (dist-ssr/dynamic-import.js), which does the import — same specifier, resolved from the same
 * folder.
 *
 * Why: the API runs under tsx, whose loader rewrites every ES module holding a dynamic import and
 * attaches a full-resolution inline source map to it; with source maps on (tsx turns them on),
 * Node then keeps that map parsed for the life of the process. For the 8 MB renderer (react-router's
 * route loader holds the one `import(`) that was ~100 MB of V8 heap at rest: the rewritten source
 * with the map inlined (62 MB, two-byte because of the CJK texts), the map's data URL (23 MB) and
 * its parsed mappings (17 MB). Without the expression tsx leaves the file as it is.
 */
export const HELPER = 'dynamic-import.js';
const HELPER_SOURCE = `// Written by apps/web/build/ssr-dynamic-import.ts: the renderer's dynamic imports, done here.\nexport const dynamicImport = (specifier) => import(specifier);\n`;

interface Node {
  type: string;
  start: number;
  end: number;
  [k: string]: unknown;
}

/** Start offsets of every ImportExpression in the program. */
function importExpressions(code: string): number[] {
  const out: number[] = [];
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) walk(x);
      return;
    }
    const node = n as Node;
    if (node.type === 'ImportExpression') out.push(node.start);
    for (const [k, v] of Object.entries(node)) if (k !== 'type' && v && typeof v === 'object') walk(v);
  };
  walk(parseAst(code));
  return out;
}

/** The chunk with each `import(` replaced by a call of the helper module's `dynamicImport`; null when it has none. */
export function hideDynamicImports(code: string): string | null {
  const starts = importExpressions(code);
  if (!starts.length) return null;
  let out = '';
  let at = 0;
  for (const s of starts.sort((a, b) => a - b)) {
    if (code.slice(s, s + 6) !== 'import') throw new Error(`ssr-dynamic-import: no import keyword at ${s}`);
    out += code.slice(at, s) + '__dynamicImport';
    at = s + 6;
  }
  return `import { dynamicImport as __dynamicImport } from './${HELPER}';\n${out}${code.slice(at)}`;
}

/** For the SSR build only (vite.config.ts). */
export function ssrDynamicImport(): Plugin {
  let rewrote = false;
  return {
    name: 'portal-ssr-dynamic-import',
    apply: 'build',
    renderChunk(code) {
      const out = hideDynamicImports(code);
      if (out === null) return null;
      rewrote = true;
      return { code: out, map: null };
    },
    generateBundle() {
      if (rewrote) this.emitFile({ type: 'asset', fileName: HELPER, source: HELPER_SOURCE });
    },
  };
}
