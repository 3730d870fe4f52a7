/**
 * The boundaries' own checks (issue 45 §2, scripts/deps-check.ts): a route file running SQL is a
 * finding, two modules importing each other is one, the tree has none; and the modules' hooks a
 * process without an app needs (the demo seed's, the import command) are there after initModules.
 */
import { describe, expect, it } from 'vitest';
import type { ICruiseResult } from 'dependency-cruiser';
import { currentFindings, moduleCycles, readBaseline, routeSqlFindings } from '../../../scripts/deps-check';

describe('route-sql', () => {
  const check = (text: string) => routeSqlFindings([{ name: 'x.routes.ts', text }]);

  it('finds a statement, a transaction, a raw exec and an sql template in a route file', () => {
    expect(check(`handler: async (req) => (await deps.db.query<{ id: number }>('SELECT 1')).rows`)).toEqual(['route-sql: x.routes.ts runs .query()']);
    expect(check(`await q.query<Map<string, number>>(sqlText, [1])`)).toEqual(['route-sql: x.routes.ts runs .query()']);
    expect(check(`await deps.db.read.query('SELECT 1')`)).toEqual(['route-sql: x.routes.ts runs .query()']);
    expect(check(`await deps.db.tx(async (q) => saveRates(q, rows))`)).toEqual(['route-sql: x.routes.ts runs .tx()']);
    expect(check(`await deps.db.exec('VACUUM')`)).toEqual(['route-sql: x.routes.ts runs .exec()']);
    expect(check('const s = sql`SELECT 1`;')).toEqual(['route-sql: x.routes.ts runs sql`…`']);
  });

  it('leaves the query string, a RegExp and comments alone', () => {
    expect(check(`const { page } = req.query; const m = ID_RE.exec(req.params.id); const n = req.query['expand[]'];`)).toEqual([]);
    expect(check(`// the service runs db.query( here\n/** deps.db.tx( in a comment */\nconst a = 1;`)).toEqual([]);
  });
});

describe('module-cycle', () => {
  const result = (edges: [string, string][]) => ({ modules: edges.map(([from, to]) => ({ source: from, dependencies: [{ resolved: to }] })) }) as unknown as ICruiseResult;

  it('is one finding per pair of modules that import each other, at any file', () => {
    expect(
      moduleCycles(
        result([
          ['apps/api/src/modules/payments/late.ts', 'apps/api/src/modules/acquirer/index.ts'],
          ['apps/api/src/modules/acquirer/operations.service.ts', 'apps/api/src/modules/payments/index.ts'],
          ['apps/api/src/modules/paybylink/paybylink.sync.ts', 'apps/api/src/modules/acquirer/index.ts'],
        ]),
      ),
    ).toEqual(['acquirer ↔ payments']);
  });
});

it('the API has no boundary finding left, and the baseline lists none (issue 45 §2: zero)', async () => {
  expect(readBaseline()).toEqual([]);
  expect(await currentFindings()).toEqual([]);
}, 120_000);

it("the hooks a process without an app needs are registered by the modules' init (initModules)", async () => {
  const { chargeOrderFollower } = await import('../src/modules/acquirer/charge-orders');
  const { userLinks } = await import('../src/modules/team/team.links');
  const { approvalChangeOf } = await import('../src/modules/team/approvals.kinds');
  const { initModules } = await import('../src/modules/registry');
  const { followCharge } = await import('../src/modules/paybylink/paybylink.charge');
  const { sendActivation } = await import('../src/modules/account/links.service');
  expect(() => chargeOrderFollower()).toThrow(/no module registered its orders/);
  expect(() => userLinks()).toThrow(/no module registered/);
  expect(approvalChangeOf({ requireTotp: { merId: 'M', require: false } })).toBeUndefined();
  initModules({ config: { env: 'test' } } as never);
  expect(chargeOrderFollower()).toBe(followCharge);
  expect(userLinks().sendActivation).toBe(sendActivation);
  expect(approvalChangeOf({ requireTotp: { merId: 'M', require: false } })).toBeTypeOf('function');
  expect(approvalChangeOf({ policy: {} })).toBeUndefined();
});
