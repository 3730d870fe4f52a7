import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addTxn } from '../txn/txn.fixtures';
import { addOperator, opsLogin } from './ops.fixtures';

/**
 * Support "view as" (issue 26, decision 046): the support operator opens a merchant's portal
 * read-only with a reason for 30 minutes; the server refuses every change; audited on both sides;
 * ended by the operator, by the clock, or with the operator's session. Both engines.
 */
describe.each(DB_KINDS)('ops view-as (%s)', (kind) => {
  let ctx: TestCtx;
  let support: string;
  let supportB: string;
  let risk: string;
  let demo: string;
  const supportCreds = { secret: '' };
  const h = (token: string, lang = 'en') => ({ 'x-token': token, 'accept-language': lang });
  const open = (token: string, merId: string = DEMO.group, reason = 'Ticket 4711: settlement question') =>
    ctx.call({ method: 'POST', url: `/api/ops/merchants/${merId}/view-as`, headers: h(token), payload: { reason } });
  const opsAudit = (token: string, action: string) => ctx.call({ method: 'GET', url: '/api/ops/audit', headers: h(token), query: { action, from: day(-30), to: day(1), size: '100' } });
  // audit rows carry the database's time (the real clock), not the test clock's
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await addTxn(ctx, { merId: DEMO.subA, orderNo: 'VA-SUBA-1' });
    await addTxn(ctx, { merId: DEMO.other, orderNo: 'VA-OTHER-1', currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    const s = await addOperator(ctx, 'va-support', 'support');
    supportCreds.secret = s.secret;
    const b = await addOperator(ctx, 'va-support-b', 'support');
    const r = await addOperator(ctx, 'va-risk', 'risk');
    support = await opsLogin(ctx, 'va-support', s.secret);
    supportB = await opsLogin(ctx, 'va-support-b', b.secret);
    risk = await opsLogin(ctx, 'va-risk', r.secret);
    demo = (await ctx.login()).token;
  });
  afterAll(() => ctx?.close());

  it('opens a read-only view of a group: its scope, the read-only permissions, a banner, no sign-in of a merchant user', async () => {
    const sessionsBefore = (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM user_session`)).rows[0].n;
    const res = await open(support);
    expect(res.body.code).toBe(0);
    const va = res.body.data;
    expect(va).toMatchObject({ merId: DEMO.group, token: expect.stringMatching(/^va_/) });
    expect(Date.parse(va.expiresAt) - ctx.clock.now().getTime()).toBe(30 * 60_000);
    const info = await ctx.call({ method: 'GET', url: '/api/user/info', headers: h(va.token) });
    expect(info.body.data).toMatchObject({ merId: DEMO.group, userAdmin: false, viewAs: { id: va.id, operator: 'va-support', expiresAt: va.expiresAt } });
    expect(info.body.data.permissions).not.toContain('txn:detail:refund');
    expect(info.body.data.permissions).not.toContain('merchant:user');
    expect(info.body.data.permissions).not.toContain('txn:export');
    const merchant = await ctx.call({ method: 'GET', url: '/api/merchant/info', headers: h(va.token) });
    expect(merchant.body.data.subMerIdList).toEqual([DEMO.group, DEMO.subA, DEMO.subB]);
    const txns = await ctx.call({ method: 'GET', url: '/api/txn/list', headers: h(va.token) });
    const orders = txns.body.data.content.map((x: { mrequest: { orderno: string } }) => x.mrequest.orderno);
    expect(orders).toContain('VA-SUBA-1');
    expect(orders).not.toContain('VA-OTHER-1');
    // Another merchant's data answers as if it did not exist.
    const otherDetail = await ctx.call({ method: 'GET', url: `/api/merchant/${DEMO.other}`, headers: h(va.token) });
    expect(otherDetail.body.code).not.toBe(0);
    expect((await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM user_session`)).rows[0].n).toBe(sessionsBefore);
    await ctx.call({ method: 'POST', url: `/api/ops/view-as/${va.id}/end`, headers: h(support) });
  });

  it("refuses every change, export, download and the team, key and account routes, in the caller's language", async () => {
    const va = (await open(support)).body.data;
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/txn/refund', { id: 1, amount: '1.00' }],
      ['POST', '/api/user/add', { userName: 'x', email: 'x@x.example', merIds: DEMO.subA, role: 'FINANCE' }],
      ['POST', '/api/payByLink/qrList', {}],
      ['POST', '/api/user/logout'],
      ['GET', '/api/user/list'],
      ['GET', '/api/user/sessions'],
      ['GET', '/api/developer/keys'],
      ['GET', '/api/webhooks/endpoint/list'],
      ['GET', '/api/txn/export'],
      ['GET', '/api/files/list'],
      ['GET', '/api/audit/list'],
      ['GET', '/api/chat/token'],
    ];
    for (const [method, url, payload] of calls) {
      const r = await ctx.call({ method: method as 'GET', url, headers: h(va.token, 'ja'), payload: payload as object });
      // logout is public (it ends the session of its token): a view-as token is no session of it.
      if (url === '/api/user/logout') continue;
      expect([r.status, r.body.code], `${method} ${url}`).toEqual([403, Code.FORBIDDEN]);
    }
    const r = await ctx.call({ method: 'POST', url: '/api/txn/refund', headers: h(va.token, 'ja'), payload: {} });
    expect(r.body.msg).toContain('読み取り専用');
    // Logging out with the view-as token did not end the operator's view, nor anything else.
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: h(va.token) })).body.code).toBe(0);
    // The view-as token is unknown to the ops API; a merchant user's unknown too.
    expect((await ctx.call({ method: 'GET', url: '/api/ops/view-as', headers: h(va.token) })).status).toBe(401);
    expect((await open(demo)).status).toBe(401);
    await ctx.call({ method: 'POST', url: `/api/ops/view-as/${va.id}/end`, headers: h(support) });
  });

  it('reads every report — bill, transfer, both daily summaries, reserve — and still refuses their exports (issue 53)', async () => {
    const va = (await open(support)).body.data;
    const R = { beginDate: '2026-09-01', endDate: '2026-09-20' };
    const lists: [string, Record<string, string>][] = [
      ['/api/report/bill/list', R],
      ['/api/report/transfer/list', R],
      ['/api/report/txn/newList', R],
      ['/api/report/txn/list', R],
      ['/api/report/reserve/list', { releaseBeginDate: R.beginDate, releaseEndDate: R.endDate }],
    ];
    for (const [url, query] of lists) {
      const viewed = await ctx.call({ method: 'GET', url, headers: h(va.token, 'ja'), query });
      const own = await ctx.call({ method: 'GET', url, headers: h(demo, 'ja'), query });
      expect([viewed.status, viewed.body.code], url).toEqual([200, 0]);
      expect(viewed.body.data, url).toEqual(own.body.data);
      const exp = await ctx.call({ method: 'GET', url: url.replace(/list$/i, (m) => (m === 'List' ? 'Export' : 'export')), headers: h(va.token, 'ja'), query });
      expect([exp.status, exp.body.code], `${url} export`).toEqual([403, Code.FORBIDDEN]);
    }
    // Another merchant's rows answer as absent: the view's scope is the group's.
    const other = await ctx.call({ method: 'GET', url: '/api/report/bill/list', headers: h(va.token), query: { ...R, merId: DEMO.other } });
    expect(other.body.data?.content ?? []).toEqual([]);
    await ctx.call({ method: 'POST', url: `/api/ops/view-as/${va.id}/end`, headers: h(support) });
  });

  it('refuses an operator without the support role, bad input and an unknown merchant', async () => {
    expect((await open(risk)).status).toBe(403);
    expect((await ctx.call({ method: 'GET', url: '/api/ops/view-as', headers: h(risk) })).status).toBe(403);
    expect((await open(support, DEMO.group, 'abc')).status).toBe(400);
    expect((await open(support, 'not-a-merchant')).status).toBe(400);
    expect((await open(support, '999999999999999')).status).toBe(404);
  });

  it('ends by the operator (only its own), audited on both sides with who, when, why and the end', async () => {
    const va = (await open(support, DEMO.subA, 'Ticket 4712: refund question')).body.data;
    expect((await ctx.call({ method: 'POST', url: `/api/ops/view-as/${va.id}/end`, headers: h(supportB) })).status).toBe(404);
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: h(va.token) })).body.code).toBe(0);
    const end = await ctx.call({ method: 'POST', url: `/api/ops/view-as/${va.id}/end`, headers: h(support) });
    expect(end.body.code).toBe(0);
    const after = await ctx.call({ method: 'GET', url: '/api/user/info', headers: h(va.token) });
    expect([after.status, after.body.code]).toEqual([401, Code.SESSION_ENDED]);
    const list = (await ctx.call({ method: 'GET', url: '/api/ops/view-as', headers: h(support) })).body.data;
    expect(list[0]).toMatchObject({ id: va.id, merId: DEMO.subA, reason: 'Ticket 4712: refund question', endReason: 'operator', endedAt: expect.any(String) });
    // The back office's audit.
    const ops = (await opsAudit(support, 'ops.view_as')).body.data.content.filter((x: { detail: string }) => x.detail.includes(`"viewAsId":${va.id}`));
    expect(ops.map((x: { action: string }) => x.action).sort()).toEqual(['ops.view_as.end', 'ops.view_as.start']);
    expect(ops[0]).toMatchObject({ actor: 'va-support', byOperator: true, merId: DEMO.subA });
    // The merchant's own audit log (its main user).
    const mine = await ctx.call({ method: 'GET', url: '/api/audit/list', headers: h(demo), query: { userName: 'va-support', size: '50' } });
    const rows = mine.body.data.content.filter((x: { merId: string }) => x.merId === DEMO.subA);
    expect(rows.map((x: { action: string }) => x.action)).toEqual(expect.arrayContaining(['ops.view_as.start', 'ops.view_as.end']));
    expect(rows[0].target).toContain('Ticket 4712');
  });

  it('ends after 30 minutes (absolute), even while in use', async () => {
    const va = (await open(support)).body.data;
    ctx.clock.advance(14 * 60_000);
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: h(va.token) })).body.code).toBe(0);
    ctx.clock.advance(14 * 60_000);
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: h(va.token) })).body.code).toBe(0);
    ctx.clock.advance(2 * 60_000);
    const r = await ctx.call({ method: 'GET', url: '/api/user/info', headers: h(va.token) });
    expect([r.status, r.body.code]).toEqual([401, Code.SESSION_ENDED]);
    const { rows } = await ctx.db.query<{ end_reason: string; ended_at: Date; expires_at: Date }>(`SELECT end_reason, ended_at, expires_at FROM ops_view_as WHERE id = $1`, [va.id]);
    expect(rows[0].end_reason).toBe('expired');
    expect(new Date(rows[0].ended_at).getTime()).toBe(new Date(rows[0].expires_at).getTime());
    support = await opsLogin(ctx, 'va-support', supportCreds.secret);
  });

  it("ends with the operator's session (sign-out) and when a new view replaces it", async () => {
    const first = (await open(support)).body.data;
    const second = (await open(support, DEMO.subB)).body.data;
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: h(first.token) })).status).toBe(401);
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: h(second.token) })).body.code).toBe(0);
    await ctx.call({ method: 'POST', url: '/api/ops/auth/logout', headers: h(support) });
    const { rows } = await ctx.db.query<{ id: string; end_reason: string }>(`SELECT id, end_reason FROM ops_view_as WHERE id = ANY($1::bigint[]) ORDER BY id`, [[first.id, second.id]]);
    expect(rows.map((x) => x.end_reason)).toEqual(['replaced', 'operator-session-ended']);
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: h(second.token) })).status).toBe(401);
  });
});
