/**
 * The API's import boundaries (issue 45 §2, `.dependency-cruiser.cjs`): runs dependency-cruiser and
 * compares its findings with `.dependency-cruiser-known-violations.json`, the findings of the day the
 * rules came in, which may only shrink. Fails on a finding not in the list (a new circle, a new
 * import past another module's index.ts, infrastructure importing a module, a route file running
 * SQL) and on a listed finding that is gone (take it out: the list shrinks with the code). `--update` rewrites the list, but only
 * by removing entries: it refuses to add one.
 *
 *   npm run lint:deps            check
 *   npm run lint:deps -- --update   drop the findings that are gone from the list
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { cruise, type ICruiseResult } from 'dependency-cruiser';

const root = path.resolve(import.meta.dirname, '..');
const BASELINE = path.join(root, '.dependency-cruiser-known-violations.json');

/**
 * Decision 066: routes parse, authorise and map — they never run SQL nor open a transaction (a
 * service owns its transaction and statements). A `*.routes.ts` file under apps/api/src that calls
 * `.query(` or `.tx(` (on `deps.db`, `db.read`, a `q`: whatever the receiver is named), a database's
 * `db.exec(` (not a RegExp's `exec`) or writes an `sql` template is a `route-sql` finding, one per
 * file and statement kind: the text is read, not the import graph, since routes reach the database
 * through `deps.db`, never by importing it.
 */
const ROUTE_SQL = /\.(query|tx)\s*(?:<[^>()]*(?:<[^>]*>[^>()]*)*>)?\s*\(|\b[dD]b\.(exec)\s*\(|\b(sql)\s*`/g;

export function routeSqlFindings(files: { name: string; text: string }[]): string[] {
  const out = new Set<string>();
  for (const f of files) {
    const code = f.text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const m of code.matchAll(ROUTE_SQL)) out.add(`route-sql: ${f.name} runs ${m[3] ? 'sql`…`' : `.${m[1] ?? m[2]}()`}`);
  }
  return [...out].sort();
}

function routeFiles(): { name: string; text: string }[] {
  const dir = path.join(root, 'apps/api/src');
  return (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((f) => f.endsWith('.routes.ts'))
    .sort()
    .map((f) => ({ name: `apps/api/src/${f.split(path.sep).join('/')}`, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/** One finding as a stable line: "rule: from → to" (a circle names its first file and the cycle). */
function findings(result: ICruiseResult): string[] {
  const out = new Set<string>();
  for (const v of result.summary.violations) {
    const cycle = v.cycle?.length ? ` (cycle ${v.cycle.map((c) => (typeof c === 'string' ? c : c.name)).join(' → ')})` : '';
    out.add(`${v.rule.name}: ${v.from} → ${v.to}${cycle}`);
  }
  for (const pair of moduleCycles(result)) out.add(`module-cycle: ${pair}`);
  for (const f of routeSqlFindings(routeFiles())) out.add(f);
  return [...out].sort();
}

/**
 * The pairs of modules that import each other (decision 066): "a ↔ b" in name order, one finding per
 * pair — the issue's own measure (8 pairs on the day it was filed). Longer module circles (a → b →
 * c → a, through their index.ts files) are counted in the summary, not gated: `moduleKnot`.
 */
function moduleEdges(result: ICruiseResult): Map<string, Set<string>> {
  const moduleOf = (file: string) => /^apps\/api\/src\/modules\/([^/]+)\//.exec(file)?.[1];
  const edges = new Map<string, Set<string>>();
  for (const m of result.modules) {
    const from = moduleOf(m.source);
    if (!from) continue;
    for (const d of m.dependencies) {
      const to = moduleOf(d.resolved);
      if (to && to !== from) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
    }
  }
  return edges;
}

export function moduleCycles(result: ICruiseResult): string[] {
  const edges = moduleEdges(result);
  const pairs: string[] = [];
  for (const [a, tos] of edges) for (const b of tos) if (a < b && edges.get(b)?.has(a)) pairs.push(`${a} ↔ ${b}`);
  return pairs;
}

/** The modules of the largest set that all reach each other (a figure for the summary line). */
export function moduleKnot(result: ICruiseResult): string[] {
  const edges = moduleEdges(result);
  const reach = (a: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [a];
    while (stack.length) {
      for (const n of edges.get(stack.pop()!) ?? []) {
        if (!seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    return seen;
  };
  const reached = new Map([...edges.keys()].map((m) => [m, reach(m)]));
  let best: string[] = [];
  for (const a of edges.keys()) {
    const knot = [...edges.keys()].filter((b) => b === a || (reached.get(a)!.has(b) && reached.get(b)!.has(a)));
    if (knot.length > best.length) best = knot.sort();
  }
  return best.length > 1 ? best : [];
}

/**
 * The issue's figures, for the summary line: imports from one module's file into another module
 * (each import statement once; a type-only one too), those past the other's index.ts, the module
 * pairs that import each other, and the largest set of modules that all reach each other.
 */
export function figures(result: ICruiseResult): { crossModule: number; pastIndex: number; modulePairs: number; knot: string[] } {
  const moduleOf = (file: string) => /^apps\/api\/src\/modules\/([^/]+)\//.exec(file)?.[1];
  let crossModule = 0;
  let pastIndex = 0;
  for (const m of result.modules) {
    const from = moduleOf(m.source);
    if (!from) continue;
    for (const d of m.dependencies) {
      const to = moduleOf(d.resolved);
      if (!to || to === from) continue;
      crossModule++;
      if (d.resolved !== `apps/api/src/modules/${to}/index.ts`) pastIndex++;
    }
  }
  return { crossModule, pastIndex, modulePairs: moduleCycles(result).length, knot: moduleKnot(result) };
}

async function cruiseApi(): Promise<ICruiseResult> {
  const require = createRequire(import.meta.url);
  const config = require(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: unknown[]; options: Record<string, unknown> };
  const prev = process.cwd();
  process.chdir(root);
  try {
    const { output } = await cruise(['apps/api/src'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden, options: config.options } } as never);
    return output as ICruiseResult;
  } finally {
    process.chdir(prev);
  }
}

export async function currentFindings(): Promise<string[]> {
  return findings(await cruiseApi());
}

export const readBaseline = (): string[] => (fs.existsSync(BASELINE) ? (JSON.parse(fs.readFileSync(BASELINE, 'utf8')) as { findings: string[] }).findings : []);

async function main(): Promise<number> {
  const t0 = Date.now();
  const result = await cruiseApi();
  const now = findings(result);
  const f = figures(result);
  const known = readBaseline();
  const knownSet = new Set(known);
  const nowSet = new Set(now);
  const added = now.filter((f) => !knownSet.has(f));
  const gone = known.filter((f) => !nowSet.has(f));
  const byRule = (list: string[]) =>
    Object.entries(list.reduce<Record<string, number>>((m, f) => ((m[f.split(':')[0]] = (m[f.split(':')[0]] ?? 0) + 1), m), {}))
      .map(([r, n]) => `${r} ${n}`)
      .join(', ') || 'none';
  if (process.argv.includes('--init')) {
    fs.writeFileSync(BASELINE, JSON.stringify({ note: 'Known boundary findings (issue 45 §2): may only shrink. scripts/deps-check.ts', findings: now }, null, 2) + '\n');
    console.log(`deps: baseline written with ${now.length} findings (${byRule(now)})`);
    return 0;
  }
  if (process.argv.includes('--update')) {
    if (added.length) {
      console.error(`deps: --update only removes findings; ${added.length} new ones must be fixed:\n  ${added.join('\n  ')}`);
      return 1;
    }
    fs.writeFileSync(BASELINE, JSON.stringify({ note: 'Known boundary findings (issue 45 §2): may only shrink. scripts/deps-check.ts', findings: known.filter((f) => nowSet.has(f)) }, null, 2) + '\n');
    console.log(`deps: ${gone.length} findings removed from the list, ${now.length} left`);
    return 0;
  }
  console.log(`deps: ${now.length} known findings left (${byRule(now)}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(
    `deps: ${f.crossModule} imports across modules, ${f.pastIndex} past an index.ts, ${f.modulePairs} module pairs importing each other${f.knot.length ? `, modules in a circle: ${f.knot.join(' ')}` : ', no circle of modules'}`,
  );
  if (added.length) console.error(`deps: ${added.length} new boundary findings (fix them; the list only shrinks):\n  ${added.join('\n  ')}`);
  if (gone.length) console.error(`deps: ${gone.length} listed findings are gone — run \`npm run lint:deps -- --update\` to take them off the list:\n  ${gone.join('\n  ')}`);
  return added.length || gone.length ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(await main());
