import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS_ROLES, OPS_RUNS_READ_ROLES } from '@portal/contract';
import { createTestApp, type TestCtx } from './helpers';
import { NOTICE_WRITERS } from '../src/modules/ops/notices.routes';
import { VIEW_AS_ROLES } from '../src/modules/ops/view-as.service';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

/** The rows of every markdown table in `md` whose header starts with `first`: cells, trimmed. */
function tableRows(md: string, first: string): string[][] {
  const rows: string[][] = [];
  let inTable = false;
  for (const line of md.split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    const cells = line
      .slice(1, line.endsWith('|') ? -1 : undefined)
      .split('|')
      .map((c) => c.trim());
    if (cells[0] === first) inTable = true;
    else if (inTable && !/^-+$/.test(cells[0])) rows.push(cells);
  }
  return rows;
}

/**
 * The routes of a route cell: `METHOD /path` (`GET/POST` for both, `{a,b}` for alternatives, a
 * query string dropped), and `/last` after one — the previous path with its last part replaced.
 * Other code in the cell (bodies, parameters) is not a route.
 */
export function routesOfCell(cell: string): string[] {
  const out: string[] = [];
  let prev = '';
  for (const [, code] of cell.matchAll(/`([^`]+)`/g)) {
    const m = /^((?:GET|POST|PUT|PATCH|DELETE)(?:\/(?:GET|POST|PUT|PATCH|DELETE))*) (\/\S+)$/.exec(code);
    let methods: string[];
    let p: string;
    if (m) [methods, p] = [m[1].split('/'), m[2]];
    else if (/^\/[A-Za-z]/.test(code) && prev) [methods, p] = [[prev.split(' ')[0]], prev.split(' ')[1].replace(/\/[^/]+$/, '') + code];
    else continue;
    p = p.replace(/\?.*$/, '');
    const alt = /\{([^}]+)\}/.exec(p);
    const paths = alt ? alt[1].split(',').map((a) => p.replace(alt[0], a.trim())) : [p];
    for (const method of methods) for (const x of paths) out.push(`${method} ${x}`);
    prev = `${methods[methods.length - 1]} ${paths[paths.length - 1]}`;
  }
  return out;
}

/**
 * Issue 46: the provider's documents say what the code does. docs/backoffice.md's roles table
 * (once each role, its rights as the routes' role lists give them) and its route tables (each
 * route's roles as `config.opsRoles` says); the links of README.md and docs/ lead to files of this
 * repository (the domain rules are docs/domain.md, not a document outside it).
 */
describe('docs agree with the code', () => {
  let ctx: TestCtx;
  const backoffice = read('docs/backoffice.md');
  beforeAll(async () => {
    ctx = await createTestApp({});
  });
  afterAll(() => ctx?.close());

  it('docs/backoffice.md roles table: each role once, with the rights the routes give it', () => {
    const rows = tableRows(backoffice, 'role');
    const roles = rows.map((r) => r[0].replace(/`/g, ''));
    expect(roles).toEqual([...OPS_ROLES]);
    const may = Object.fromEntries(rows.map((r) => [r[0].replace(/`/g, ''), r[1]]));
    const claims = (re: RegExp) => OPS_ROLES.filter((role) => role !== 'administrator' && re.test(may[role])).sort();
    expect(claims(/including Runs/), 'who reads Runs').toEqual([...OPS_RUNS_READ_ROLES].sort());
    expect(claims(/\(not Runs\)/), 'who does not').toEqual(OPS_ROLES.filter((r) => r !== 'administrator' && !OPS_RUNS_READ_ROLES.includes(r)).sort());
    expect(claims(/withdraw notices/), 'who writes notices').toEqual([...NOTICE_WRITERS].sort());
    expect(claims(/view as/), 'who opens the support view').toEqual([...VIEW_AS_ROLES].sort());
    expect(may.administrator).toMatch(/^every route/);
  });

  it("docs/backoffice.md route tables: every route exists, with the code's roles", () => {
    const code = new Map<string, string[] | 'public'>();
    for (const r of ctx.routes) {
      if (!r.url.startsWith('/api/ops/')) continue;
      const roles = (r.config as { opsRoles?: readonly string[] | 'public' } | undefined)?.opsRoles;
      for (const m of ([] as string[]).concat(r.method)) code.set(`${m} ${r.url}`, roles === 'public' ? 'public' : ['administrator', ...(roles ?? []).filter((x) => x !== 'administrator')].sort());
    }
    const rows = tableRows(backoffice, 'route');
    expect(rows.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const [cell, rolesCell] of rows) {
      const documented: string[] | 'public' = /^(public|development only)/.test(rolesCell)
        ? 'public'
        : rolesCell === 'any'
          ? [...OPS_ROLES].sort()
          : [
              'administrator',
              ...rolesCell
                .split(',')
                .map((s) => s.trim())
                .filter((x) => x !== 'administrator'),
            ].sort();
      const routes = routesOfCell(cell);
      if (!routes.length) wrong.push(`no route in "${cell}"`);
      for (const route of routes) {
        if (!code.has(route)) wrong.push(`${route}: no such route`);
        else if (JSON.stringify(code.get(route)) !== JSON.stringify(documented)) wrong.push(`${route}: documented ${JSON.stringify(documented)}, code ${JSON.stringify(code.get(route))}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('reads route cells', () => {
    expect(routesOfCell('`GET/POST /api/ops/operators`, `POST /api/ops/operators/:id/{role,disable}`')).toEqual([
      'GET /api/ops/operators',
      'POST /api/ops/operators',
      'POST /api/ops/operators/:id/role',
      'POST /api/ops/operators/:id/disable',
    ]);
    expect(routesOfCell('`POST /api/ops/merchants/:merId/lock` `{reason}` · `/unlock`')).toEqual(['POST /api/ops/merchants/:merId/lock', 'POST /api/ops/merchants/:merId/unlock']);
    expect(routesOfCell('`GET /api/ops/audit?from=&to=` (+ `merId`)')).toEqual(['GET /api/ops/audit']);
  });

  it('README.md and docs/: every relative link leads to a file of the repository; none points outside it', () => {
    const files = [
      'README.md',
      ...fs
        .readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const broken: string[] = [];
    for (const f of files) {
      const md = read(f);
      for (const [, target] of md.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
        const file = path.resolve(ROOT, path.dirname(f), target.split('#')[0]);
        if (!file.startsWith(ROOT + path.sep) || !fs.existsSync(file)) broken.push(`${f}: ${target}`);
      }
      for (const m of md.matchAll(/(?:\.\.\/)*shared\/(?:docs|spec)\/[\w.-]+/g)) broken.push(`${f}: ${m[0]} (outside the repository)`);
    }
    expect(broken).toEqual([]);
  });
});
