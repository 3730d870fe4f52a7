import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, isConcurrent, type TestCtx } from '../../../test/helpers';
import { readOutbox } from '../../plugins/mail';
import { buyerPay, createOrder } from '../paybylink/paybylink.fixtures';
import { addOperator, BANK, FEE, merchantBody, opsLogin } from './ops.fixtures';

/** The back office's merchants (issue 26): create, list, edit, lock — roles, bad input, audit, both engines. */
describe.each(DB_KINDS)('ops merchants (%s)', (kind) => {
  let ctx: TestCtx;
  let onboarding: string;
  let risk: string;
  let reader: string;
  let groupId: string;
  const h = (token: string, lang = 'en') => ({ 'x-token': token, 'accept-language': lang });
  const count = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM merchant')).rows[0].n;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const ob = await addOperator(ctx, 'mer-onboarding', 'onboarding');
    const rk = await addOperator(ctx, 'mer-risk', 'risk');
    const ro = await addOperator(ctx, 'mer-reader', 'read-only');
    onboarding = await opsLogin(ctx, 'mer-onboarding', ob.secret);
    risk = await opsLogin(ctx, 'mer-risk', rk.secret);
    reader = await opsLogin(ctx, 'mer-reader', ro.secret);
  });
  afterAll(() => ctx?.close());

  it('creates a group with fees, bank account and a main user who activates from the e-mail and signs in', async () => {
    const res = await ctx.call({ method: 'POST', url: '/api/ops/merchants', headers: h(onboarding), payload: merchantBody() });
    expect(res.body.code, res.body.msg).toBe(0);
    expect(res.body.data.mailed).toBe(true);
    groupId = res.body.data.merId;
    expect(groupId).toMatch(/^\d{15}$/);
    const detail = await ctx.call({ method: 'GET', url: `/api/ops/merchants/${groupId}`, headers: h(reader) });
    expect(detail.body.data).toMatchObject({ attribute: 'GROUP', name: 'New Group', channels: ['CARD', 'AP'], locked: false });
    expect(detail.body.data.fees).toHaveLength(2);
    expect(detail.body.data.fees.find((f: { busLine: string }) => f.busLine === 'CARD')).toMatchObject({ mdrBp: 300, fixedFee: 200, cycleDays: 2, transferPeriod: 'W1' });
    expect(detail.body.data.bankAccounts[0]).toMatchObject({ swiftCode: 'EXAMHKHH', accountNumber: '****9012' });
    expect(detail.body.data.users).toEqual([{ username: 'newgroup-main', email: 'main@newgroup.example', status: 'INACTIVE', main: true }]);
    // The main user's activation mail, then the merchant portal.
    const mail = (await readOutbox(ctx.outbox)).find((m) => m.to.includes('main@newgroup.example'));
    const token = /\/user\/active\?token=([A-Za-z0-9_-]+)/.exec(mail!.text)![1];
    const act = await ctx.call({ method: 'POST', url: '/api/user/active', payload: { token, newPassword: 'Group-Main-1', confirmPassword: 'Group-Main-1' } });
    expect(act.body.code, act.body.msg).toBe(0);
    const signed = await ctx.login('newgroup-main', 'Group-Main-1');
    const info = await ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': signed.token } });
    expect(info.body.data).toMatchObject({ merId: groupId, userAdmin: true });
    const audited = await ctx.db.query<{ detail: { before: null; after: { bankAccount: { accountNumber: string } } } }>(
      `SELECT detail FROM audit_log WHERE action = 'ops.merchant.create' AND mer_id = $1 AND operator_id IS NOT NULL`,
      [groupId],
    );
    expect(audited.rows[0].detail.before).toBeNull();
    expect(audited.rows[0].detail.after.bankAccount.accountNumber).toBe('****9012');
  });

  it('sub-merchants join the group; the group filter lists the group and its subs', async () => {
    for (const name of ['New Sub One', 'New Sub Two']) {
      const res = await ctx.call({ method: 'POST', url: '/api/ops/merchants', headers: h(onboarding), payload: merchantBody({ attribute: 'SUB', parentId: groupId, name, mainUser: undefined }) });
      expect(res.body.code, res.body.msg).toBe(0);
    }
    const list = await ctx.call({ method: 'GET', url: '/api/ops/merchants', headers: h(reader), query: { groupId } });
    expect(list.body.data.totalElements).toBe(3);
    const subs = await ctx.call({ method: 'GET', url: '/api/ops/merchants', headers: h(reader), query: { attribute: 'SUB', search: 'new sub' } });
    expect(subs.body.data.content.map((m: { name: string }) => m.name).sort()).toEqual(['New Sub One', 'New Sub Two']);
    expect(subs.body.data.content[0].parentName).toBe('New Group');
    const byChannel = await ctx.call({ method: 'GET', url: '/api/ops/merchants', headers: h(reader), query: { channel: 'PPRO_PAYPAY' } });
    expect(byChannel.body.data.content.map((m: { merId: string }) => m.merId)).toEqual([DEMO.subB]);
  });

  it('bad input changes nothing and is told in the caller’s language', async () => {
    const before = await count();
    const noParent = await ctx.call({ method: 'POST', url: '/api/ops/merchants', headers: h(onboarding, 'zh'), payload: merchantBody({ attribute: 'SUB', mainUser: undefined }) });
    expect(noParent.status).toBe(400);
    expect(noParent.body.msg).toMatch(/请求参数错误/);
    const notGroup = await ctx.call({ method: 'POST', url: '/api/ops/merchants', headers: h(onboarding), payload: merchantBody({ attribute: 'SUB', parentId: DEMO.other, mainUser: undefined }) });
    expect(notGroup.status).toBe(400);
    const twice = await ctx.call({ method: 'POST', url: '/api/ops/merchants', headers: h(onboarding), payload: merchantBody({ fees: [FEE, FEE] }) });
    expect(twice.status).toBe(400);
    const badSwift = await ctx.call({ method: 'POST', url: '/api/ops/merchants', headers: h(onboarding), payload: merchantBody({ bankAccount: { ...BANK, swiftCode: 'nope' } }) });
    expect(badSwift.status).toBe(400);
    const badDate = await ctx.call({ method: 'GET', url: '/api/ops/merchants', headers: h(reader), query: { createdFrom: '2026-02-30' } });
    expect(badDate.status).toBe(400);
    // A main user whose name is taken: the whole merchant is refused (nothing half-written).
    const taken = await ctx.call({
      method: 'POST',
      url: '/api/ops/merchants',
      headers: h(onboarding, 'ja'),
      payload: merchantBody({ name: 'Taken Co', mainUser: { username: 'demo', email: 'x@taken.example' } }),
    });
    expect(taken.body.code).toBe(Code.BAD_REQUEST);
    expect(taken.body.msg).toContain('既に存在');
    expect(await count()).toBe(before);
  });

  it('roles: read-only and risk cannot create or edit; onboarding cannot lock', async () => {
    const ro = await ctx.call({ method: 'POST', url: '/api/ops/merchants', headers: h(reader), payload: merchantBody() });
    expect(ro.status).toBe(403);
    const rk = await ctx.call({ method: 'POST', url: `/api/ops/merchants/${groupId}`, headers: h(risk), payload: merchantBody() });
    expect(rk.status).toBe(403);
    const ob = await ctx.call({ method: 'POST', url: `/api/ops/merchants/${groupId}/lock`, headers: h(onboarding), payload: { reason: 'test' } });
    expect(ob.status).toBe(403);
    const missing = await ctx.call({ method: 'GET', url: '/api/ops/merchants/899999999999999', headers: h(reader) });
    expect(missing.status).toBe(404);
  });

  it('edit: audited with the changed fields before and after', async () => {
    const { fees: _f, bankAccount: _b, mainUser: _m, attribute: _a, ...fields } = merchantBody();
    const res = await ctx.call({ method: 'POST', url: `/api/ops/merchants/${groupId}`, headers: h(onboarding), payload: { ...fields, name: 'New Group Renamed', dailyLimit: 5000000 } });
    expect(res.body.code, res.body.msg).toBe(0);
    const { rows } = await ctx.db.query<{ detail: { before: Record<string, unknown>; after: Record<string, unknown> } }>(
      `SELECT detail FROM audit_log WHERE action = 'ops.merchant.edit' AND mer_id = $1`,
      [groupId],
    );
    expect(rows[0].detail.before).toEqual({ name: 'New Group', dailyLimit: null });
    expect(rows[0].detail.after).toEqual({ name: 'New Group Renamed', dailyLimit: 5000000 });
  });

  it('lock: the merchant accepts no payments and its users get a notice with the reason; unlock restores', async () => {
    const main = (await ctx.login(DEMO.users.other)).token;
    const order = await createOrder(ctx, main, { orderCurrency: 'SGD' });
    const lock = await ctx.call({ method: 'POST', url: `/api/ops/merchants/${DEMO.other}/lock`, headers: h(risk), payload: { reason: 'Chargeback ratio under review' } });
    expect(lock.body.code, lock.body.msg).toBe(0);
    const paid = await buyerPay(ctx, order.linkToken);
    expect([paid.status, paid.body.code]).toEqual([403, Code.FORBIDDEN]);
    const notices = await ctx.db.query<{ content: Record<string, string> }>(`SELECT content FROM notice WHERE mer_id = $1 ORDER BY id DESC LIMIT 1`, [DEMO.other]);
    expect(notices.rows[0].content.en).toContain('Chargeback ratio under review');
    expect(notices.rows[0].content.zh).toContain('锁定');
    const listed = await ctx.call({ method: 'GET', url: '/api/ops/merchants', headers: h(reader), query: { status: 'LOCKED' } });
    expect(listed.body.data.content.map((m: { merId: string; lockReason: string }) => [m.merId, m.lockReason])).toEqual([[DEMO.other, 'Chargeback ratio under review']]);
    await ctx.call({ method: 'POST', url: `/api/ops/merchants/${DEMO.other}/unlock`, headers: h(risk) });
    const again = await buyerPay(ctx, order.linkToken);
    expect(again.body.code, again.body.msg).toBe(0);
    const audit = await ctx.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE mer_id = $1 AND action LIKE 'ops.merchant.%lock' ORDER BY id`, [DEMO.other]);
    expect(audit.rows.map((r) => r.action)).toEqual(['ops.merchant.lock', 'ops.merchant.unlock']);
  });

  it.skipIf(!isConcurrent(kind))('two creations of one main user name at once: one merchant, one refusal', async () => {
    const before = await count();
    const body = merchantBody({ name: 'Race Co', mainUser: { username: 'race-main', email: 'race@race.example' } });
    const out = await Promise.all([0, 1].map(() => ctx.call({ method: 'POST', url: '/api/ops/merchants', headers: h(onboarding), payload: body })));
    expect(out.map((r) => r.body.code).sort()).toEqual([0, Code.BAD_REQUEST]);
    expect(await count()).toBe(before + 1);
  });
});
