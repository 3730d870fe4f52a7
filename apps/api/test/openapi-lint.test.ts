import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestCtx } from './helpers';
import { fixNullable, operationIdOf } from '../src/lib/openapi';

const run = promisify(execFile);
const REDOCLY = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

/**
 * The OpenAPI documents a merchant's SDK generator reads (issue 31): the portal's (/api/docs) and
 * the merchant API's (/v1/docs) pass `redocly lint` with its recommended rules — no error — and every
 * operation has a unique operationId and a documented 4xx answer. Issue 46: the provider's
 * (/api/provider/docs, a gateway's team generates its client from it) and the back office's
 * (/api/ops/docs) too. The lint runs the real @redocly/cli (a devDependency, no network) over the
 * documents the app serves.
 */
const DOCS = [
  ['portal', '/api/docs/json'],
  ['v1', '/v1/docs/json'],
  ['provider', '/api/provider/docs/json'],
  ['ops', '/api/ops/docs/json'],
  // Issue 51: the SCIM face's own document (SCIM bearer token, application/scim+json, SCIM errors).
  ['scim', '/scim/v2/docs/json'],
] as const;
const NAMES = DOCS.map(([name]) => name);
/** Each document has more operations than this (one that lost its routes would lint clean). */
const MIN_OPERATIONS: Record<(typeof NAMES)[number], number> = { portal: 130, v1: 4, provider: 2, ops: 40, scim: 15 };
describe('OpenAPI documents: redocly lint (recommended) finds no error', () => {
  let ctx: TestCtx;
  let dir: string;
  const docs: Record<string, any> = {};

  beforeAll(async () => {
    ctx = await createTestApp({});
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
    for (const [name, url] of DOCS) {
      const r = await ctx.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      docs[name] = r.json();
      fs.writeFileSync(path.join(dir, `${name}.json`), r.body);
    }
  });
  afterAll(async () => {
    await ctx?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(NAMES)('%s: no lint error', async (name) => {
    const out = await run(process.execPath, [REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', `${name}.json`], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout }),
    );
    const report = JSON.parse(out.stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it.each(NAMES)('%s: every operation has a unique operationId and a 4xx answer; servers listed', (name) => {
    const doc = docs[name];
    expect(doc.servers?.length, 'servers').toBeGreaterThan(0);
    const ops = Object.entries(doc.paths).flatMap(([p, ms]) => Object.entries(ms as Record<string, any>).map(([m, op]) => ({ key: `${m} ${p}`, op })));
    expect(ops.length).toBeGreaterThan(MIN_OPERATIONS[name]);
    expect(ops.filter((o) => !o.op.operationId).map((o) => o.key)).toEqual([]);
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
    expect(ops.filter((o) => !Object.keys(o.op.responses ?? {}).some((s) => s.startsWith('4'))).map((o) => o.key)).toEqual([]);
  });

  it('provider and ops: the 401 and 403 where the route can give them, not elsewhere', () => {
    const codes = (name: string, p: string, m: string) => Object.keys(docs[name].paths[p][m].responses).sort();
    expect(codes('provider', '/provider/v1/transactions/{gwTransId}/status', 'post')).toEqual(['200', '400', '401', '404']);
    expect(codes('provider', '/provider/v1/transactions', 'post')).toEqual(['200', '400', '401']);
    // sign-in needs no token; every role may read itself; only onboarding (and the administrator) creates merchants
    expect(codes('ops', '/api/ops/auth/login', 'post')).toEqual(['200', '400', '429']);
    expect(codes('ops', '/api/ops/me', 'get')).toEqual(['200', '400', '401']);
    expect(codes('ops', '/api/ops/merchants', 'post')).toEqual(['200', '400', '401', '403']);
    expect(docs.ops.paths['/api/ops/merchants'].post.operationId).toBe('postOpsMerchants');
  });

  it("issue 51: the SSO and SCIM routes are described — the portal's in its document, /scim/v2 in its own", () => {
    const portal = docs.portal.paths;
    for (const p of [
      '/api/sso/discover',
      '/api/sso/start',
      '/api/sso/login',
      '/api/sso/config',
      '/api/sso/provider',
      '/api/sso/mapping',
      '/api/sso/domain',
      '/api/sso/domain/verify',
      '/api/sso/policy',
      '/api/sso/step-up/start',
      '/api/team/scim/tokens',
      '/api/team/scim/tokens/create',
      '/api/team/scim/mappings/save',
      '/api/team/signin-ip/save',
    ]) {
      expect(portal[p], p).toBeDefined();
    }
    expect(Object.keys(portal).filter((p) => p.startsWith('/scim/'))).toEqual([]);
    expect(Object.keys(docs.ops.paths).filter((p) => p.includes('/sso')).length, 'back office SSO routes').toBeGreaterThan(0);
    const scim = docs.scim;
    expect(scim.components.securitySchemes.scimToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(scim.security).toEqual([{ scimToken: [] }]);
    const ops = Object.entries(scim.paths).flatMap(([p, ms]) => Object.entries(ms as Record<string, any>).map(([m, op]) => ({ key: `${m} ${p}`, op })));
    expect(ops.map((o) => o.key)).toEqual(
      expect.arrayContaining([
        'get /scim/v2/Users',
        'post /scim/v2/Users',
        'patch /scim/v2/Users/{id}',
        'delete /scim/v2/Users/{id}',
        'get /scim/v2/Groups',
        'patch /scim/v2/Groups/{id}',
        'get /scim/v2/ServiceProviderConfig',
      ]),
    );
    for (const { key, op } of ops) {
      for (const [code, r] of Object.entries(op.responses as Record<string, any>)) {
        if (code === '204') continue;
        expect(Object.keys(r.content ?? {}), `${key} ${code}`).toEqual(['application/scim+json']);
        if (code.startsWith('4')) expect(r.content['application/scim+json'].schema.required, `${key} ${code}`).toEqual(['schemas', 'status', 'detail']);
      }
      if (/^(post|put|patch) /.test(key)) expect(Object.keys(op.requestBody.content), key).toEqual(['application/scim+json', 'application/json']);
    }
    expect(scim.paths['/scim/v2/Users/{id}'].put.parameters.map((x: { name: string }) => x.name)).toContain('if-match');
    expect(scim.paths['/scim/v2/Users/{id}'].delete.responses['204']).toEqual({ description: 'No content' });
  });

  it('derives operationIds from method and path', () => {
    expect(operationIdOf('GET', '/api/txn/:id')).toBe('getTxnById');
    expect(operationIdOf('POST', '/api/user/getEmailCode')).toBe('postUserGetEmailCode');
    expect(operationIdOf('GET', '/api/checkout/store/:token')).toBe('getCheckoutStoreByToken');
    expect(operationIdOf('GET', '/dev/mailbox')).toBe('getDevMailboxPage');
    expect(operationIdOf('POST', '/provider/v1/transactions/:gwTransId/status')).toBe('postProviderV1TransactionsByGwTransIdStatus');
    expect(operationIdOf('POST', '/api/ops/merchants/:merId/lock')).toBe('postOpsMerchantsByMerIdLock');
  });

  it('puts nullable beside a type: into each member of a nullable union', () => {
    expect(fixNullable({ nullable: true, anyOf: [{ type: 'boolean' }, { anyOf: [{ type: 'object' }, { type: 'string' }] }] })).toEqual({
      anyOf: [
        { type: 'boolean', nullable: true },
        {
          anyOf: [
            { type: 'object', nullable: true },
            { type: 'string', nullable: true },
          ],
        },
      ],
    });
    expect(fixNullable({ type: 'string', nullable: true })).toEqual({ type: 'string', nullable: true });
  });
});
