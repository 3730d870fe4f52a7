import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestCtx } from '../../../test/helpers';
import { pbl } from '../paybylink/paybylink.fixtures';
import { seedPayByLinkDemo } from './paybylink.seed';

describe('pay-by-link demo seed', () => {
  let ctx: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedPayByLinkDemo(ctx.deps);
  });
  afterAll(() => ctx.close());

  it('leaves orders in every state, the paid one with its transaction', async () => {
    const demo = (await ctx.login(DEMO.users.demo)).token;
    const list = await pbl(ctx, demo).get('/api/payByLink/list?size=30');
    const rows = list.body.data.content as { reconId: string; status: string; openStatus: string; prodCategory: string }[];
    const by = Object.fromEntries(rows.map((r) => [r.reconId, r]));
    expect(rows).toHaveLength(7);
    expect(by['INV-2026-0142']).toMatchObject({ status: '00' });
    expect(by['INV-2026-0148']).toMatchObject({ status: '01', openStatus: '01' });
    expect(by['INV-2026-0150']).toMatchObject({ status: '01', openStatus: '01' });
    expect(by['INV-2026-0151']).toMatchObject({ status: '01', openStatus: '01' }); // expired on read
    expect(by['INV-2026-0153']).toMatchObject({ status: '04', openStatus: '02' });
    expect(by['API-88213']).toMatchObject({ status: '04', prodCategory: 'invoice' });
    const { rows: txns } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM txn WHERE source = 'paybylink'`);
    expect(txns[0].n).toBe(2); // the paid one and the failed one
  });
});
