import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../helpers';
import { addOperator, opsLogin } from '../../src/modules/ops/ops.fixtures';
import { viewAsMayCall } from '../../src/modules/ops/view-as.service';
import { apiRoutes, fillPath, routeKey, type ApiRoute } from './route-table';

/**
 * Support "view as" on the route table (decision 046): every /api route that is not public and is
 * not a GET of the allow-list refuses a view-as token (403, before its input is read) — every
 * state-changing route, every export and download, the team, key, webhook and account routes. The
 * GET routes a view-as may call are listed here, so a new one is a reviewed change.
 */
const VIEW_AS_READABLE = [
  'GET /api/dashboard/cashCalendar',
  // Issue 48: the disputes inbox, the dashboard's counts, a dispute's detail (not its evidence files).
  'GET /api/disputes/:id',
  'GET /api/disputes/counts',
  'GET /api/disputes/list',
  'GET /api/gateway/differences',
  'GET /api/merchant',
  'GET /api/merchant/list',
  'GET /api/merchant/:id',
  'GET /api/merchant/detailDeposit/:id',
  'GET /api/merchant/getSubBrandCodeList',
  'GET /api/merchant/info',
  'GET /api/merchant/listMerchantBank',
  'GET /api/merchant/listMerchantFee',
  'GET /api/notice/detail/:id',
  'GET /api/notice/list',
  'GET /api/payByLink/:id',
  'GET /api/payByLink/list',
  'GET /api/payByLink/options',
  'GET /api/payByLink/orderno/:no',
  'GET /api/payInStore/:id',
  'GET /api/payInStore/cashier/list',
  'GET /api/payInStore/list',
  'GET /api/payInStore/orderno/:no',
  'GET /api/payInStore/storeList',
  'GET /api/report/bill/list',
  'GET /api/report/reserve/list',
  'GET /api/report/transfer/list',
  'GET /api/report/txn/list',
  'GET /api/report/txn/newList',
  'GET /api/txn/:id',
  'GET /api/txn/list',
  'GET /api/txn/queryResult',
  'GET /api/txn/settleDetail',
  'GET /api/txn/settleList',
  'GET /api/txn/settleLogisticsList',
  'GET /api/txn/takings',
  'GET /api/txn/totals',
  'GET /api/user/info',
  'GET /api/search',
  'GET /api/views',
  'GET /api/views/:id',
];

describe.each(DB_KINDS)('route table: a view-as session changes nothing (%s)', (kind) => {
  let ctx: TestCtx;
  let routes: ApiRoute[];
  let token: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    routes = apiRoutes(ctx.routes).filter((r) => r.config?.auth !== 'public');
    const op = await addOperator(ctx, 'rt-support', 'support');
    const ops = await opsLogin(ctx, 'rt-support', op.secret);
    const res = await ctx.call({ method: 'POST', url: `/api/ops/merchants/${DEMO.group}/view-as`, headers: { 'x-token': ops }, payload: { reason: 'Route table security test' } });
    expect(res.body.code, res.body.msg).toBe(0);
    token = res.body.data.token;
  });
  afterAll(() => ctx?.close());

  it('may call only the reviewed GET routes', () => {
    const readable = routes
      .filter((r) => viewAsMayCall(r.method, r.url))
      .map(routeKey)
      .sort();
    expect(readable).toEqual([...VIEW_AS_READABLE].sort());
    expect(routes.filter((r) => r.method !== 'GET' && viewAsMayCall(r.method, r.url))).toEqual([]);
  });

  it('refuses every other route with 403 before reading its input, and nothing is written', async () => {
    const before = (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action NOT LIKE 'ops.%'`)).rows[0].n;
    const refused = routes.filter((r) => !VIEW_AS_READABLE.includes(routeKey(r)));
    expect(refused.filter((r) => r.method !== 'GET').length).toBeGreaterThan(50);
    for (const r of refused) {
      const res = await ctx.call({ method: r.method, url: fillPath(r.url, () => '1'), headers: { 'x-token': token, 'accept-language': 'en' }, payload: r.method === 'GET' ? undefined : {} });
      expect([res.status, res.body.code], routeKey(r)).toEqual([403, Code.FORBIDDEN]);
      expect(res.body.msg, routeKey(r)).toContain('read-only');
    }
    expect((await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action NOT LIKE 'ops.%'`)).rows[0].n).toBe(before);
  });
});
