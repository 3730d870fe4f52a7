import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRANDS, Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';

describe.each(DB_KINDS)('merchant info on %s', (kind) => {
  let ctx: TestCtx;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    for (const u of Object.values(DEMO.users)) tokens[u] = (await ctx.login(u)).token;
  });
  afterAll(() => ctx.close());
  const get = (url: string, user: string) => ctx.call({ method: 'GET', url, headers: { 'x-token': tokens[user] } });

  it('gives a group user the group and its sub-merchants, own merchant first', async () => {
    const res = await get('/api/merchant/info', DEMO.users.demo);
    expect(res.body.code).toBe(0);
    expect(res.body.data.subMerIdList).toEqual([DEMO.group, DEMO.subA, DEMO.subB]);
    expect(res.body.data.subMerIdAndNameList[1]).toEqual({ mid: DEMO.subA, name: 'Demo Store Shanghai' });
    expect(res.body.data.currencyList[0]).toBe('HKD');
    expect(res.body.data.contractor).toBe(2);
    expect(res.body.data.channelList).toEqual(expect.arrayContaining(['UP', 'CARD', 'APMP']));
  });

  it('gives a sub-merchant user and an independent merchant only their own', async () => {
    expect((await get('/api/merchant/info', DEMO.users.sub)).body.data.subMerIdList).toEqual([DEMO.subA]);
    const other = (await get('/api/merchant/info', DEMO.users.other)).body.data;
    expect(other.subMerIdList).toEqual([DEMO.other]);
    expect(other.contractor).toBe(1);
  });

  it('needs a token', async () => {
    expect((await ctx.call({ method: 'GET', url: '/api/merchant/info' })).body.code).toBe(Code.NOT_LOGGED_IN);
  });

  it('serves the brand code list and the brand table', async () => {
    const codes = (await get('/api/merchant/getSubBrandCodeList', DEMO.users.sub)).body.data;
    expect(codes).toHaveLength(BRANDS.length);
    expect(codes).toContain('wechat_pay');
    const table = (await get('/api/charge/codeList', DEMO.users.sub)).body.data;
    expect(table.find((b: { code: string }) => b.code === 'visa').name).toBe('VISA');
  });
});
