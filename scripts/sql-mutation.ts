/**
 * `npm run test:mutation -- --sql [module …] [--list] [--only TEXT[|TEXT…]] [--from N]`: mutation testing of the SQL
 * text itself, which StrykerJS cannot see inside (issue 24, decision 014).
 *
 * For each module: every string and template literal of its source files that parses as SQL with
 * the real PostgreSQL parser (libpg-query's WASM build, through pgsql-parser) is mutated, one
 * predicate at a time —
 *   - drop one AND term (WHERE, JOIN … ON, CASE, a subquery's WHERE: every AND), or a whole
 *     single-term WHERE;
 *   - `<` ↔ `<=`, `>` ↔ `>=` (the boundary), `=` ↔ `<>`;
 *   - drop a `FOR UPDATE` / `FOR SHARE` (any row-locking clause);
 *   - `LIMIT n` → `n+1` and `n-1`;
 * deparsed back to SQL, written into the file, and the module's own test files are run on
 * PostgreSQL only (TEST_DB_KINDS=postgres; TEST_DATABASE_URL must be set) with a per-mutant
 * timeout. The file is restored after each mutant — and on Ctrl-C, a crash, or at the next start
 * when a run was killed outright (a copy waits in reports/mutation/sql-backup/).
 *
 * Template literals with `${…}` are handled: each interpolation becomes an identifier placeholder
 * (`sqlmut_N_`) before parsing and is put back after deparsing; a literal that does not parse so
 * (an interpolation standing for a SET list, a keyword, half a clause) is counted as skipped. So
 * is a fragment — a WHERE clause built in code is tried as `SELECT 1 WHERE <text>` and mutated
 * when it parses as a predicate.
 *
 * Prints the score per module (killed + timed out) / mutants and every survivor with file and
 * line; writes reports/mutation/sql-<module>.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { parse as parseTs } from '@babel/parser';
import { parse as parseSql, deparse } from 'pgsql-parser';

export interface ModuleDef {
  mutate: { file: string; functions?: string[] }[];
  tests: string[];
}

const API = 'apps/api/src/modules';

/** Files of the SQL run beyond those the Stryker module mutates, and modules only the SQL run has. */
const SQL_EXTRA: Record<string, Partial<ModuleDef>> = {
  // the password history ("not one of your last 4") is SQL of the sign-in rules
  // (passkey.test.ts: the sign-in's "passkey instead of the e-mailed code" rule, decision 047)
  'sign-in': { mutate: [{ file: `${API}/account/password.policy.ts` }], tests: [`${API}/account/passkey.test.ts`] },
  // paybylink.repo.ts is shared with pay in store (its list, the store and payment joins): its tests hold those lines
  paybylink: { tests: [`${API}/store/payinstore.test.ts`] },
  // the settlement run's statements live in their own file; the back office's dated fee schedules
  // (APPLY_SCHEDULES) are held by the ops module's fee test
  settlement: {
    mutate: [{ file: `${API}/payments/settlement/settle.sql.ts` }],
    // the rules that live only in the run's SQL (decision 014, "Settlement (tenth session)")
    tests: [`${API}/payments/settlement/settle.sql-rules.test.ts`, `${API}/ops/fees.test.ts`],
  },
  team: {
    mutate: [{ file: `${API}/team/team.repo.ts` }, { file: `${API}/team/team.service.ts` }, { file: `${API}/team/audit.service.ts` }],
    tests: [`${API}/team/team.test.ts`, `${API}/team/team.edit.test.ts`, `${API}/team/team.scope.test.ts`, `${API}/team/audit.test.ts`],
  },
  // the merchant scope: who may read which merchant (the session's scope), and the scoped lists
  // whose only guard is their SQL (settlement batches and statements, logistics)
  scope: {
    mutate: [{ file: 'apps/api/src/plugins/auth.ts' }, { file: `${API}/txn/settle-detail.service.ts` }, { file: `${API}/txn/logistics.service.ts` }],
    tests: [
      'apps/api/test/security/routes.test.ts',
      'apps/api/test/security/routes.filters.test.ts',
      `${API}/team/team.test.ts`,
      `${API}/txn/settle-detail.test.ts`,
      // the logistics import and list (settle.test.ts holds them)
      `${API}/txn/settle.test.ts`,
      // the session look-up's own rules: ending one session, the stored scope's group, the second factor required
      'apps/api/src/plugins/auth.scope.test.ts',
    ],
  },
};
const ALIASES: Record<string, string> = { 'pay-by-link': 'paybylink', signin: 'sign-in' };

// ---------------------------------------------------------------------------------------------
// Finding the SQL

interface Literal {
  file: string;
  /** Offsets of the literal in the file, quotes included. */
  start: number;
  end: number;
  line: number;
  /** The SQL text with each interpolation replaced by its placeholder. */
  sql: string;
  /** Placeholder → the source of the interpolated expression. */
  holes: string[];
  /** How each placeholder stands in the SQL: an identifier, or (for a SET list) an assignment. */
  form: (i: number) => string;
  /** Parsed as a statement, or as a predicate wrapped in `SELECT 1 WHERE …`. */
  kind: 'statement' | 'predicate';
  ast: any;
}

const HOLE = (i: number) => `sqlmut_${i}_`;
/** The forms a placeholder is tried in: an identifier (a value, a column, a table, a predicate), then an assignment (a SET list). */
const FORMS: ((i: number) => string)[] = [HOLE, (i) => `${HOLE(i)} = 0`];
const LOOKS_SQL = /^\s*(SELECT|UPDATE|INSERT|DELETE|WITH)\s+\S/i;
/** A fragment worth trying as a predicate: a comparison or a boolean connective somewhere. */
const LOOKS_PREDICATE = /(=|<|>|\bAND\b|\bIN\b|\bIS\b|\bEXISTS\b|\bBETWEEN\b)/i;

async function findLiterals(file: string, skipped: { file: string; line: number; why: string }[]): Promise<Literal[]> {
  const src = fs.readFileSync(file, 'utf8');
  const ast = parseTs(src, { sourceType: 'module', plugins: ['typescript'], errorRecovery: true });
  const out: Literal[] = [];
  const nodes: any[] = [];
  const walk = (n: any) => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(walk);
    if (n.type === 'StringLiteral' || n.type === 'TemplateLiteral') nodes.push(n);
    // the literal types of TS declarations are not SQL
    if (n.type === 'TSLiteralType' || n.type === 'ImportDeclaration' || (n.type === 'ExportNamedDeclaration' && n.source)) return;
    for (const k of Object.keys(n)) if (k !== 'loc' && k !== 'leadingComments' && k !== 'trailingComments') walk(n[k]);
  };
  walk(ast.program);
  for (const n of nodes) {
    const holes: string[] = n.type === 'TemplateLiteral' ? n.expressions.map((e: any) => src.slice(e.start, e.end)) : [];
    const textWith = (form: (i: number) => string) =>
      n.type === 'StringLiteral' ? n.value : n.quasis.map((q: any, i: number) => (q.value.cooked ?? q.value.raw) + (i < holes.length ? form(i) : '')).join('');
    const plain = textWith(HOLE);
    const statement = LOOKS_SQL.test(plain);
    if (!statement && !(LOOKS_PREDICATE.test(plain) && /[a-z_]\.?[a-z_]+\s*(=|<|>|IN|IS|BETWEEN)|\$\d/i.test(plain))) continue;
    let parsed: any = null;
    let form = HOLE;
    let text = '';
    for (const f of holes.length ? FORMS : [HOLE]) {
      text = statement ? textWith(f) : `SELECT 1 WHERE ${textWith(f)}`;
      parsed = await parseSql(text).catch(() => null);
      if (parsed) {
        form = f;
        break;
      }
    }
    if (!parsed) {
      if (statement) skipped.push({ file, line: n.loc.start.line, why: holes.length ? 'an interpolation parses neither as an identifier nor as an assignment' : 'does not parse' });
      continue;
    }
    const sql = text;
    if (!statement) {
      const w = parsed.stmts?.[0]?.stmt?.SelectStmt?.whereClause;
      if (!w || !(w.BoolExpr || w.A_Expr || w.SubLink || w.NullTest)) continue;
    }
    out.push({ file, start: n.start, end: n.end, line: n.loc.start.line, sql, holes, form, kind: statement ? 'statement' : 'predicate', ast: parsed });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Mutating the AST

interface Mutant {
  id: string;
  file: string;
  line: number;
  what: string;
  /** The literal as it will stand in the file. */
  replacement: string;
  literal: Literal;
  sql: string;
}

const clone = <T>(x: T): T => structuredClone(x);
const FLIP: Record<string, string> = { '<': '<=', '<=': '<', '>': '>=', '>=': '>', '=': '<>', '<>': '=', '!=': '=' };

/** Every path (list of keys) to a node of the AST, with the node. */
function* nodes(x: any, p: (string | number)[] = []): Generator<[(string | number)[], any]> {
  if (!x || typeof x !== 'object') return;
  yield [p, x];
  if (Array.isArray(x)) for (let i = 0; i < x.length; i++) yield* nodes(x[i], [...p, i]);
  else for (const k of Object.keys(x)) yield* nodes(x[k], [...p, k]);
}
const at = (root: any, p: (string | number)[]) => p.reduce((o, k) => o[k], root);

/** The mutations of one AST: [description, mutated AST, char offset in the SQL]. */
function mutationsOf(ast: any): [string, any, number][] {
  const out: [string, any, number][] = [];
  const loc = (n: any): number => {
    for (const [, x] of nodes(n)) if (typeof x?.location === 'number') return x.location;
    return 0;
  };
  const text = (n: any) => {
    try {
      return shortSql(n);
    } catch {
      return '…';
    }
  };
  for (const [p, n] of nodes(ast)) {
    // drop one AND term
    if (n.BoolExpr?.boolop === 'AND_EXPR') {
      const args = n.BoolExpr.args as any[];
      args.forEach((arg, i) => {
        const m = clone(ast);
        const rest = args.filter((_, j) => j !== i);
        const parent = at(m, p.slice(0, -1));
        parent[p[p.length - 1]] = rest.length === 1 ? clone(rest[0]) : { BoolExpr: { ...clone(n.BoolExpr), args: clone(rest) } };
        out.push([`drop AND term \`${text(arg)}\``, m, loc(arg)]);
      });
    }
    // a single-term WHERE: drop it
    if (n.whereClause && !n.whereClause.BoolExpr) {
      const m = clone(ast);
      delete at(m, p).whereClause;
      out.push([`drop WHERE \`${text(n.whereClause)}\``, m, loc(n.whereClause)]);
    }
    // comparison operators
    if (n.A_Expr?.kind === 'AEXPR_OP' && n.A_Expr.name?.length === 1) {
      const op = n.A_Expr.name[0].String?.sval;
      if (FLIP[op]) {
        const m = clone(ast);
        at(m, p).A_Expr.name[0].String.sval = FLIP[op];
        out.push([`\`${op}\` → \`${FLIP[op]}\` in \`${text(n)}\``, m, n.A_Expr.location ?? loc(n)]);
      }
    }
    // row locks
    if (Array.isArray(n.lockingClause)) {
      n.lockingClause.forEach((_: unknown, i: number) => {
        const m = clone(ast);
        const s = at(m, p);
        s.lockingClause.splice(i, 1);
        if (!s.lockingClause.length) delete s.lockingClause;
        out.push(['drop the row lock (FOR UPDATE/SHARE)', m, loc(n.fromClause ?? n)]);
      });
    }
    // LIMIT n
    const lim = n.limitCount?.A_Const?.ival;
    if (lim && n.limitCount.A_Const) {
      const v: number = lim.ival ?? 0;
      for (const d of [1, -1]) {
        if (v + d < 0) continue;
        const m = clone(ast);
        at(m, p).limitCount.A_Const.ival = v + d === 0 ? {} : { ival: v + d };
        out.push([`LIMIT ${v} → ${v + d}`, m, n.limitCount.A_Const.location ?? 0]);
      }
    }
  }
  return out;
}

function shortSql(n: any): string {
  // deparse a node alone where the deparser allows it; else a hint
  const s = deparseNode(n);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}
let deparseNode: (n: any) => string = () => '…';

/** The literal's SQL as source text: a template literal with the interpolations put back. */
function asSource(sql: string, l: Literal): string {
  let body = sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
  l.holes.forEach((h, i) => {
    body = body.split(l.form(i)).join(`\${${h}}`);
  });
  return `\`${body}\``;
}

async function deparsed(l: Literal, ast: any): Promise<string | null> {
  let sql = await deparse(ast, { pretty: false });
  if (l.kind === 'predicate') {
    const m = /^SELECT 1 WHERE (.*)$/s.exec(sql);
    if (!m) return null;
    sql = m[1];
  }
  // every placeholder must come back exactly once per use, unquoted
  for (let i = 0; i < l.holes.length; i++) if (!sql.includes(l.form(i)) || sql.includes(`"${HOLE(i)}"`) || sql.split(HOLE(i)).length !== sql.split(l.form(i)).length) return null;
  return sql;
}

const stripLocations = (x: any): any => JSON.parse(JSON.stringify(x, (k, v) => (k === 'location' || k === 'stmt_len' || k === 'stmt_location' ? undefined : v)));

async function mutantsOf(l: Literal, skipped: { file: string; line: number; why: string }[]): Promise<Mutant[]> {
  // the deparser must give back the same statement before its output can stand for a mutant
  const same = await deparsed(l, l.ast);
  const back = same && (await parseSql(l.kind === 'predicate' ? `SELECT 1 WHERE ${same}` : same).catch(() => null));
  if (!same || !back || JSON.stringify(stripLocations(back)) !== JSON.stringify(stripLocations(l.ast))) {
    skipped.push({ file: l.file, line: l.line, why: 'the deparser does not give back the same statement' });
    return [];
  }
  const out: Mutant[] = [];
  const seen = new Set<string>([same]);
  for (const [what, ast, offset] of mutationsOf(l.ast)) {
    const sql = await deparsed(l, ast).catch(() => null);
    if (!sql || seen.has(sql)) continue;
    seen.add(sql);
    const within = l.kind === 'predicate' ? Math.max(0, offset - 'SELECT 1 WHERE '.length) : offset;
    const line = l.line + (l.sql.slice(0, l.kind === 'predicate' ? within + 15 : within).match(/\n/g)?.length ?? 0);
    out.push({ id: `${l.file}:${line}#${out.length + 1}`, file: l.file, line, what, replacement: asSource(sql, l), literal: l, sql });
  }
  out.forEach((m, i) => (m.id = `${m.file}:${m.line} #${i + 1}@${l.line}`));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Running

const BACKUP_DIR = 'reports/mutation/sql-backup';
/** Files currently mutated: their original text, restored on any exit. */
const pristine = new Map<string, string>();

function restoreAll() {
  for (const [file, text] of pristine) {
    fs.writeFileSync(file, text);
    fs.rmSync(path.join(BACKUP_DIR, file.replace(/\//g, '__')), { force: true });
  }
  pristine.clear();
}

/** A run killed outright (SIGKILL, power) left its backup: put the files back before anything else. */
function recoverCrashed() {
  if (!fs.existsSync(BACKUP_DIR)) return;
  for (const f of fs.readdirSync(BACKUP_DIR)) {
    const file = f.replace(/__/g, '/');
    fs.writeFileSync(file, fs.readFileSync(path.join(BACKUP_DIR, f)));
    fs.rmSync(path.join(BACKUP_DIR, f));
    console.log(`restored ${file} from the backup of an interrupted run`);
  }
}

function mutateFile(m: Mutant) {
  const original = pristine.get(m.file) ?? fs.readFileSync(m.file, 'utf8');
  if (!pristine.has(m.file)) {
    fs.mkdirSync(BACKUP_DIR, { recursive: true });
    fs.writeFileSync(path.join(BACKUP_DIR, m.file.replace(/\//g, '__')), original);
    pristine.set(m.file, original);
  }
  fs.writeFileSync(m.file, original.slice(0, m.literal.start) + m.replacement + original.slice(m.literal.end));
}

let child: ReturnType<typeof spawn> | null = null;

function runTests(tests: string[], timeoutMs: number): Promise<{ outcome: 'passed' | 'failed' | 'timeout'; ms: number; tail: string }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const vitest = path.resolve('node_modules/vitest/vitest.mjs');
    const c = spawn(process.execPath, [vitest, 'run', '--bail=1', '--maxWorkers=1', '--reporter=dot', ...tests], {
      env: { ...process.env, TEST_DB_KINDS: 'postgres' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child = c;
    let tail = '';
    const keep = (d: Buffer) => (tail = (tail + d.toString()).slice(-4000));
    c.stdout!.on('data', keep);
    c.stderr!.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-c.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, timeoutMs);
    c.on('exit', (code) => {
      clearTimeout(timer);
      child = null;
      resolve({ outcome: timedOut ? 'timeout' : code === 0 ? 'passed' : 'failed', ms: Date.now() - t0, tail });
    });
  });
}

interface Result {
  name: string;
  mutants: number;
  killed: number;
  timeout: number;
  survived: Mutant[];
  skipped: { file: string; line: number; why: string }[];
  minutes: number;
}

async function runModule(name: string, def: ModuleDef, opts: { list: boolean; only?: string; from?: number }): Promise<Result> {
  const files = [...new Set(def.mutate.map((m) => m.file))];
  const skipped: Result['skipped'] = [];
  const mutants: Mutant[] = [];
  for (const f of files) for (const l of await findLiterals(f, skipped)) mutants.push(...(await mutantsOf(l, skipped)));
  // --only A|B|C: the mutants whose place or description contains any of them — or whose line as the
  // log prints it (`file:line  what`, so a run's survivors can be run again); --from N: the Nth mutant on (resuming a run)
  const only = opts.only?.split('|').filter(Boolean);
  const chosen = (only ? mutants.filter((m) => only.some((o) => `${m.id} ${m.what}`.includes(o) || `${m.file}:${m.line}  ${m.what}`.includes(o))) : mutants).slice(Math.max(0, (opts.from ?? 1) - 1));
  const t0 = Date.now();
  const r: Result = { name, mutants: chosen.length, killed: 0, timeout: 0, survived: [], skipped, minutes: 0 };
  console.log(`\n== SQL mutation: ${name} — ${chosen.length} mutants in ${files.length} files (${skipped.length} literals skipped), tests: ${def.tests.join(' ')}`);
  for (const s of skipped) console.log(`   skipped ${s.file}:${s.line} (${s.why})`);
  if (opts.list) {
    for (const m of chosen) console.log(`   ${m.file}:${m.line}  ${m.what}\n      ${m.sql.replace(/\s+/g, ' ').slice(0, 200)}`);
    return r;
  }
  // vitest runs whatever of its filters match: a misspelt or moved test file would silently leave its rules untested
  const missing = def.tests.filter((t) => !fs.existsSync(t));
  if (missing.length) throw new Error(`${name}: test files not found: ${missing.join(' ')}`);
  const base = await runTests(def.tests, 15 * 60_000);
  if (base.outcome !== 'passed') throw new Error(`${name}: the tests fail without any mutant:\n${base.tail}`);
  const timeoutMs = Number(process.env.SQL_MUTATION_TIMEOUT_MS ?? Math.round(base.ms * 2 + 30_000));
  console.log(`   tests pass unmutated in ${(base.ms / 1000).toFixed(0)} s; per-mutant timeout ${(timeoutMs / 1000).toFixed(0)} s`);
  let i = 0;
  for (const m of chosen) {
    i++;
    mutateFile(m);
    let res;
    try {
      res = await runTests(def.tests, timeoutMs);
    } finally {
      restoreAll();
    }
    if (res.outcome === 'failed') r.killed++;
    else if (res.outcome === 'timeout') r.timeout++;
    else r.survived.push(m);
    console.log(`   [${i}/${chosen.length}] ${res.outcome === 'passed' ? 'SURVIVED' : res.outcome} ${(res.ms / 1000).toFixed(0)} s  ${m.file}:${m.line}  ${m.what}`);
  }
  r.minutes = (Date.now() - t0) / 60_000;
  return r;
}

const score = (r: Result) => (r.mutants ? ((r.killed + r.timeout) / r.mutants) * 100 : 100);

export async function sqlMain(modules: Record<string, ModuleDef>, argv: string[]): Promise<void> {
  const list = argv.includes('--list');
  const onlyAt = argv.indexOf('--only');
  const only = onlyAt >= 0 ? argv[onlyAt + 1] : undefined;
  const fromAt = argv.indexOf('--from');
  const from = fromAt >= 0 ? Number(argv[fromAt + 1]) : undefined;
  const names = argv.filter((a, i) => !a.startsWith('--') && (onlyAt < 0 || i !== onlyAt + 1) && (fromAt < 0 || i !== fromAt + 1)).map((n) => ALIASES[n] ?? n);
  const all: Record<string, ModuleDef> = {};
  for (const n of new Set([...Object.keys(modules), ...Object.keys(SQL_EXTRA)])) {
    all[n] = { mutate: [...(modules[n]?.mutate ?? []), ...(SQL_EXTRA[n]?.mutate ?? [])], tests: [...(modules[n]?.tests ?? []), ...(SQL_EXTRA[n]?.tests ?? [])] };
  }
  const wanted = names.length ? names : Object.keys(all);
  for (const n of wanted) if (!all[n]) throw new Error(`unknown module ${n}; one of ${Object.keys(all).join(', ')}`);
  if (!list && !process.env.TEST_DATABASE_URL) {
    console.error('test:mutation --sql runs on PostgreSQL: set TEST_DATABASE_URL=postgres://…');
    process.exit(2);
  }
  // the WASM parser: also used to print a mutated node alone
  await parseSql('SELECT 1');
  const { deparseSync } = await import('pgsql-parser');
  deparseNode = (n: any) => String(deparseSync(n, { pretty: false }) ?? '…');

  // (a listing writes nothing: it leaves a running mutation run's backup alone)
  if (!list) recoverCrashed();
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      if (child?.pid)
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      restoreAll();
      console.error(`\n${sig}: mutated files restored`);
      process.exit(130);
    });
  }
  process.on('exit', restoreAll);
  process.on('uncaughtException', (e) => {
    restoreAll();
    console.error(e);
    process.exit(1);
  });

  fs.mkdirSync('reports/mutation', { recursive: true });
  const done: Result[] = [];
  for (const n of wanted) {
    const r = await runModule(n, all[n], { list, only, from });
    done.push(r);
    if (list) continue;
    fs.writeFileSync(
      `reports/mutation/sql-${n}.json`,
      JSON.stringify({ ...r, score: score(r), survived: r.survived.map((m) => ({ where: `${m.file}:${m.line}`, what: m.what, sql: m.sql })) }, null, 2),
    );
    console.log(`== ${n}: SQL mutation score ${score(r).toFixed(1)} % (killed ${r.killed}, timeout ${r.timeout}, survived ${r.survived.length} of ${r.mutants}) in ${r.minutes.toFixed(1)} min`);
  }
  if (list) return;
  console.log('\nSQL mutation score per module (target ≥ 85 %):');
  for (const r of done) {
    console.log(`  ${r.name.padEnd(12)} ${score(r).toFixed(1).padStart(5)} %  (${r.killed + r.timeout} of ${r.mutants} detected; ${r.skipped.length} literals skipped)`);
    for (const m of r.survived) console.log(`    survived  ${m.file}:${m.line}  ${m.what}`);
  }
  if (done.some((r) => score(r) < 85)) process.exitCode = 1;
}
