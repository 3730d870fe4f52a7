import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm, RefundCode } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../../../test/helpers';
import { hashPassword } from '../../lib/crypto';
import { addTxn, loginWithStepUp } from '../txn/txn.fixtures';

/**
 * Limits inside a named role (issue 28, decision 041) on both databases: refund caps per refund and
 * per user per day, per currency; over a cap refused with a clear message, or routed to four eyes when
 * the merchant has it on; a refused refund gives its day's claim back; parallel refunds on PostgreSQL
 * never pass the daily cap together.
 */
describe.each(DB_KINDS)('team: refund caps of a role (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let clerk: string;
  let roleId: number;
  const post = (url: string, token: string, body: Record<string, string | number>, lang = 'en') => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token, 'accept-language': lang }, payload: f.payload });
  };
  const usage = async () =>
    (await ctx.db.query<{ currency: string; amount: string }>('SELECT currency, amount FROM refund_cap_usage ORDER BY day, currency')).rows.map((r) => `${r.currency} ${r.amount}`);

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = await loginWithStepUp(ctx);
    const role = await post('/api/role/save', demo, { name: 'Capped refunds', permissions: `${Perm.txnList},${Perm.txnDetail},${Perm.txnRefund}`, refundCaps: 'CNY:50.00:80.00,JPY::1000' });
    expect(role.body.code, role.body.msg).toBe(0);
    expect(role.body.data.refundCaps).toEqual({ CNY: { perRefund: '50.00', perDay: '80.00' }, JPY: { perRefund: null, perDay: '1000' } });
    roleId = role.body.data.id;
    const u = await post('/api/user/add', demo, { userName: 'cap.user', email: 'cap.user@x.example', merIds: DEMO.subA, role: 'CUSTOM', roleId });
    expect(u.body.code, u.body.msg).toBe(0);
    await ctx.db.query(`UPDATE app_user SET password_hash = $2, status = 'ACTIVE' WHERE id = $1`, [u.body.data.id, await hashPassword(DEMO.password)]);
    clerk = await loginWithStepUp(ctx, 'cap.user');
  }, 180_000);
  afterAll(async () => ctx?.close());

  it('refuses bad caps, writing nothing', async () => {
    for (const refundCaps of ['CNY:1.001:', 'CNY::', 'cny:1:2', 'CNY:1:,CNY:2:', 'CNY:1:2:3', 'CNY:-1:']) {
      const r = await post('/api/role/save', demo, { roleId, name: 'Capped refunds', permissions: Perm.txnRefund, refundCaps }, 'zh');
      expect(r.status, refundCaps).toBe(400);
    }
    expect((await ctx.db.query<{ permissions: string[] }>('SELECT permissions FROM team_role WHERE id = $1', [roleId])).rows[0].permissions).toContain(Perm.txnList);
  });

  it('per refund and per day, per currency: over a cap refused with the cap in the message; the next day starts afresh', async () => {
    const p = await addTxn(ctx, { orderNo: 'CAP-1', amount: 100000 });
    const over = await post('/api/txn/refund', clerk, { id: p.gwTransId, amount: '50.01' }, 'zh');
    expect(over.body.data).toMatchObject({ code: RefundCode.OVER_CAP });
    expect(over.body.data.msg).toContain('50.00');
    expect((await post('/api/txn/refund', clerk, { id: p.gwTransId, amount: '50.00' })).body.data.code).toBe(RefundCode.OK);
    const day = await post('/api/txn/refund', clerk, { id: p.gwTransId, amount: '30.01' });
    expect(day.body.data.code).toBe(RefundCode.OVER_CAP);
    expect(day.body.data.msg).toContain('30.00 CNY left');
    expect((await post('/api/txn/refund', clerk, { id: p.gwTransId, amount: '30.00' })).body.data.code).toBe(RefundCode.OK);
    expect(await usage()).toEqual(['CNY 8000']);
    // another currency without a cap; the administrator (no named role) is not capped
    const usd = await addTxn(ctx, { orderNo: 'CAP-USD', amount: 100000, currency: 'USD' });
    expect((await post('/api/txn/refund', clerk, { id: usd.gwTransId, amount: '200.00' })).body.data.code).toBe(RefundCode.OK);
    expect((await post('/api/txn/refund', demo, { id: p.gwTransId, amount: '60.00' })).body.data.code).toBe(RefundCode.OK);
    const refused = await ctx.db.query(`SELECT 1 FROM audit_log WHERE action = 'txn.refund' AND outcome = 'failure' AND username = 'cap.user'`);
    expect(refused.rows).toHaveLength(2);
    ctx.clock.advance(24 * 3_600_000);
    clerk = await loginWithStepUp(ctx, 'cap.user');
    demo = await loginWithStepUp(ctx);
    expect((await post('/api/txn/refund', clerk, { id: p.gwTransId, amount: '40.00' })).body.data.code).toBe(RefundCode.OK);
  });

  it("a refund refused for its amount gives the day's claim back", async () => {
    const p = await addTxn(ctx, { orderNo: 'CAP-SMALL', amount: 1000 });
    const before = await usage();
    expect((await post('/api/txn/refund', clerk, { id: p.gwTransId, amount: '20.00' })).body.data.code).toBe(RefundCode.OVER_AMOUNT);
    expect(await usage()).toEqual(before);
  });

  it('with four eyes on for the currency, a refund over the cap waits for approval instead', async () => {
    expect((await post('/api/approval/policy', demo, { merId: DEMO.group, refundLimits: 'CNY:10000.00', permissionRaise: 'false', expiryHours: 24 })).body.code).toBe(0);
    const p = await addTxn(ctx, { orderNo: 'CAP-4E', amount: 100000 });
    const r = await post('/api/txn/refund', clerk, { id: p.gwTransId, amount: '70.00' });
    expect(r.body.data.code).toBe(RefundCode.APPROVAL_REQUIRED);
    const req = await ctx.db.query<{ summary: { cap: string } }>('SELECT summary FROM approval_request WHERE id = $1', [r.body.data.approvalId]);
    expect(req.rows[0].summary.cap).toContain('50.00');
    expect((await ctx.db.query<{ return_amount: number }>('SELECT return_amount FROM txn WHERE id = $1', [p.id])).rows[0].return_amount).toBe(0);
    await post('/api/approval/policy', demo, { merId: DEMO.group, refundLimits: '', permissionRaise: 'false', expiryHours: 24 });
  });

  it.skipIf(!isConcurrent(kind))('five parallel refunds against a daily cap of 100.00: exactly three of 30.00 pass', async () => {
    // a new HKD cap, the others kept (removing a held role's cap waits for approval, issue 47)
    const saved = await post('/api/role/save', demo, {
      roleId,
      name: 'Capped refunds',
      permissions: `${Perm.txnList},${Perm.txnDetail},${Perm.txnRefund}`,
      refundCaps: 'CNY:50.00:80.00,JPY::1000,HKD::100.00',
    });
    expect(saved.body.code, saved.body.msg).toBe(0);
    const ps = await Promise.all([1, 2, 3, 4, 5].map((i) => addTxn(ctx, { orderNo: `CAP-PAR-${i}`, amount: 10000, currency: 'HKD' })));
    clerk = await loginWithStepUp(ctx, 'cap.user');
    const results = await Promise.all(ps.map((p) => post('/api/txn/refund', clerk, { id: p.gwTransId, amount: '30.00' })));
    const codes = results.map((r) => r.body.data.code).sort();
    expect(codes).toEqual([RefundCode.OK, RefundCode.OK, RefundCode.OK, RefundCode.OVER_CAP, RefundCode.OVER_CAP]);
    expect((await usage()).filter((u) => u.startsWith('HKD'))).toEqual(['HKD 9000']);
  });
});
