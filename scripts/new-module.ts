/**
 * `npm run new:module NAME` (issue 45 §1, apps/api/README.md "Adding a module"): the skeleton of a
 * new API module — its folder with a door (`index.ts`: manifest and public functions), a route, a
 * service, a message catalogue and a first route test — and its two central lines: the manifest in
 * `modules/index.ts` (MODULES), the catalogue in `modules/messages.ts`; and in the contract its
 * endpoint descriptors (decision 074) with their two lines in `endpoints/index.ts` and `endpoints/all.ts`.
 * Prints the places touched.
 *
 *   npm run new:module disputes
 *   npm run new:module -- disputes --root /tmp/x --contract /tmp/y   (the tests write under these)
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Generated {
  /** Files written, relative to the root (the API's `src`). */
  created: string[];
  /** Files changed (one line or two each). */
  changed: string[];
}

const camel = (s: string) => s.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const upper = (s: string) => s.replace(/-/g, '_').toUpperCase();
const pascal = (s: string) => camel(s).replace(/^./, (c) => c.toUpperCase());

/** The skeleton's files, by path under `modules/<name>/`. */
export function skeleton(name: string): Record<string, string> {
  const c = camel(name);
  const U = upper(name);
  const P = pascal(name);
  return {
    'index.ts': `/**
 * The ${name} module's door (issue 45, decision 066): its manifest and what other modules may use
 * of it. Other modules import it from here, never from its files (\`npm run lint:deps\`).
 */
import { defineModule } from '../contract';
import { ${c}Routes } from './${name}.routes';

export { ${c}Status } from './${name}.service';

export const manifest = defineModule({ name: '${name}', routes: ${c}Routes });
`,
    [`${name}.routes.ts`]: `import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ${P}Api } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, routeOf } from '../../lib/endpoint-route';
import { ${c}Status } from './${name}.service';

/** Routes parse, authorise and map; the service runs the statements (decision 066). Method, path and access: the descriptor (decision 074). */
export function ${c}Routes(app: FastifyInstance, deps: Deps): void {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...routeOf(${P}Api.status),
    schema: {
      tags: ['${name}'],
      summary: 'The ${name} module answers for the signed-in merchant',
      response: { 200: envelope(answerOf(${P}Api.status)(z.object({ merId: z.string(), ready: z.boolean() }))) },
    },
    handler: async (req) => ok(await ${c}Status(deps, userOf(req).merId)),
  });
}
`,
    [`${name}.service.ts`]: `import type { Deps } from '../../plugins/context';

/** The merchant's ${name} state (a service owns its statements, or calls its own repo: decision 066). */
export async function ${c}Status(deps: Deps, merId: string): Promise<{ merId: string; ready: boolean }> {
  const { rows } = await deps.db.query<{ ready: boolean }>('SELECT true AS ready');
  return { merId, ready: rows[0]?.ready ?? false };
}
`,
    [`${name}.messages.ts`]: `/** Server messages of the ${name} module (listed in modules/messages.ts). */
export const ${U}_MESSAGES = {
  ${c}NotFound: { en: 'Not found', zh: '记录不存在', ko: '찾을 수 없습니다', ja: '見つかりません' },
} as const;
`,
    [`${name}.test.ts`]: `import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';

describe.each(DB_KINDS)('${name} on %s', (kind) => {
  let ctx: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
  }, 120_000);
  afterAll(async () => ctx?.close());

  it('answers the signed-in merchant; 401 without a token', async () => {
    expect((await ctx.call({ method: 'GET', url: '/api/${name}/status' })).status).toBe(401);
    const { token } = await ctx.login(DEMO.users.demo);
    const res = await ctx.call({ method: 'GET', url: '/api/${name}/status', headers: { 'x-token': token } });
    expect(res.body.code).toBe(0);
    expect(res.body.data.ready).toBe(true);
  });
});
`,
  };
}

/** The module's endpoint descriptors in the contract (`endpoints/<name>.ts`, decision 074). */
export function descriptors(name: string): string {
  return `import { get } from './endpoint';

/** The ${name} module's portal endpoints (decision 074): the web calls them with http.call, the route table is checked against them. */
export const ${pascal(name)}Api = {
  status: get<void, { merId: string; ready: boolean }>('/api/${name}/status', 'signed-in'),
} as const;
`;
}

/** Adds a line after the last line that starts with `marker`. */
function afterLast(text: string, marker: string, line: string): string {
  const at = text.lastIndexOf(`\n${marker}`);
  const eol = text.indexOf('\n', at + 1);
  return `${text.slice(0, eol + 1)}${line}\n${text.slice(eol + 1)}`;
}

/**
 * Writes the skeleton under `<root>/modules/<name>/` and adds its two central lines; with
 * `contract` (the contract's `src`), its descriptors and their two lines there.
 */
export function generateModule(name: string, root: string, contract?: string): Generated {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`module name: lower-case letters, digits and dashes (${name})`);
  const dir = path.join(root, 'modules', name);
  if (fs.existsSync(dir)) throw new Error(`modules/${name} exists`);
  fs.mkdirSync(dir, { recursive: true });
  const created: string[] = [];
  for (const [file, text] of Object.entries(skeleton(name))) {
    fs.writeFileSync(path.join(dir, file), text);
    created.push(`modules/${name}/${file}`);
  }
  const c = camel(name);
  // MODULES: one import, one entry at the end of the list.
  const indexFile = path.join(root, 'modules', 'index.ts');
  let index = fs.readFileSync(indexFile, 'utf8');
  const lastImport = index.lastIndexOf('\nimport { manifest as ');
  const eol = index.indexOf('\n', lastImport + 1);
  index = `${index.slice(0, eol + 1)}import { manifest as ${c} } from './${name}';\n${index.slice(eol + 1)}`;
  index = index.replace(/\n\];\s*$/, `\n  ${c},\n];\n`);
  fs.writeFileSync(indexFile, index);
  // The message catalogue: one import, one spread line.
  const msgFile = path.join(root, 'modules', 'messages.ts');
  let msgs = fs.readFileSync(msgFile, 'utf8');
  const U = upper(name);
  const lastMsgImport = msgs.lastIndexOf('\nimport { ');
  const eol2 = msgs.indexOf('\n', lastMsgImport + 1);
  msgs = `${msgs.slice(0, eol2 + 1)}import { ${U}_MESSAGES } from './${name}/${name}.messages';\n${msgs.slice(eol2 + 1)}`;
  msgs = msgs.replace(/\n\};\n\naddMessages/, `\n  ...${U}_MESSAGES,\n};\n\naddMessages`);
  fs.writeFileSync(msgFile, msgs);
  const changed = ['modules/index.ts', 'modules/messages.ts'];
  if (contract) {
    const P = pascal(name);
    fs.writeFileSync(path.join(contract, 'endpoints', `${name}.ts`), descriptors(name));
    created.push(`contract:endpoints/${name}.ts`);
    const idx = path.join(contract, 'endpoints', 'index.ts');
    fs.writeFileSync(idx, `${fs.readFileSync(idx, 'utf8').trimEnd()}\nexport * from './${name}';\n`);
    const allFile = path.join(contract, 'endpoints', 'all.ts');
    let all = afterLast(fs.readFileSync(allFile, 'utf8'), 'import {', `import { ${P}Api } from './${name}';`);
    all = all.replace(/\n\};\n\nconst named/, `\n  ${P}Api,\n};\n\nconst named`);
    fs.writeFileSync(allFile, all);
    changed.push('contract:endpoints/index.ts', 'contract:endpoints/all.ts');
  }
  return { created, changed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 ? path.resolve(args[rootAt + 1]) : path.resolve(import.meta.dirname, '../apps/api/src');
  const contractAt = args.indexOf('--contract');
  const contract = contractAt >= 0 ? path.resolve(args[contractAt + 1]) : path.resolve(import.meta.dirname, '../packages/contract/src');
  const name = args.find((a, i) => !a.startsWith('--') && (rootAt < 0 || i !== rootAt + 1) && (contractAt < 0 || i !== contractAt + 1));
  if (!name) {
    console.error('usage: npm run new:module NAME');
    process.exit(2);
  }
  const g = generateModule(name, root, contract);
  console.log(`new module ${name}: ${g.created.length} files created, ${g.changed.length} changed (${g.created.length + g.changed.length} places):`);
  for (const f of [...g.created, ...g.changed]) console.log(`  ${f}`);
  console.log('Next: a permission in packages/contract if a route needs one, a descriptor per new route (apps/api/README.md, "Adding a module").');
}
