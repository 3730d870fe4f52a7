import { parseAst, type Plugin } from 'vite';

/**
 * Lets the bundler drop what the web does not use of the shared contract (issue 16, target 6).
 *
 * The web imports constants and small functions from @portal/contract, never its zod schemas. But
 * a module-level `export const fooSchema = z.object({…})` is a call, which the bundler must keep
 * "for its side effects" — and with every schema of each contract module the web touches, all of
 * zod (25 KB gzip) landed in the shell and every list screen. Here each module-level constant
 * whose initialiser calls something (schemas, shapes of schemas, lists built with Object.keys/filter)
 * becomes a pure, argument-less IIFE: `/* @__PURE__ *\/ (() => (z.object({…})))()`. Evaluated as before when used; dropped, with
 * everything it calls, when not. Contract initialisers have no side effects (they build values).
 * The API does not go through this build.
 */
const CONTRACT = /[\\/]packages[\\/]contract[\\/]src[\\/](?!.*\.test\.ts$).*\.ts$/;

interface Span {
  start: number;
  end: number;
}
type Node = Span & { type: string; [k: string]: unknown };

const FUNCTIONS = new Set(['ArrowFunctionExpression', 'FunctionExpression', 'ClassExpression']);

/** True when evaluating `n` calls something: `z.object(…)`, or `{ from: isoDate.optional() }`. Function bodies are not evaluated. */
function callsSomething(n: unknown): boolean {
  if (!n || typeof n !== 'object') return false;
  if (Array.isArray(n)) return n.some(callsSomething);
  const node = n as Node;
  if (typeof node.type !== 'string') return false;
  if (FUNCTIONS.has(node.type)) return false;
  if (node.type === 'CallExpression' || node.type === 'NewExpression' || node.type === 'TaggedTemplateExpression') return true;
  return Object.entries(node).some(([k, v]) => k !== 'type' && k !== 'start' && k !== 'end' && callsSomething(v));
}

export function markContractPure(code: string): string {
  const program = parseAst(code, { lang: 'ts' }) as unknown as { body: Node[] };
  const inits: Span[] = [];
  for (const stmt of program.body) {
    const decl = (stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt) as Node | null;
    if (!decl || decl.type !== 'VariableDeclaration' || decl.kind !== 'const') continue;
    for (const d of decl.declarations as { init: Node | null }[]) if (callsSomething(d.init)) inits.push(d.init!);
  }
  let out = code;
  for (const { start, end } of inits.sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, start)}/* @__PURE__ */ (() => (${out.slice(start, end)}))()${out.slice(end)}`;
  }
  return out;
}

export function pureContract(): Plugin {
  return {
    name: 'portal:pure-contract',
    // After the TypeScript transform: the code is JavaScript here.
    transform(code, id) {
      if (!CONTRACT.test(id)) return null;
      return { code: markContractPure(code), map: null };
    },
  };
}
