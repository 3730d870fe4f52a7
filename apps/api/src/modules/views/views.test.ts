import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { auth, revoke } from '../txn/txn.fixtures';
import { createUser } from '../../../test/security/route-table';

describe.each(DB_KINDS)('saved views (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  let other: string;
  let mate: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    // A second user of the group's Shanghai sub-merchant (the team), with the transaction list.
    await createUser(ctx, { username: 'view-mate', email: 'view-mate@demo-group.example', merId: DEMO.subA, permissions: [Perm.txnList, Perm.payByLinkList] });
    demo = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
    mate = (await ctx.login('view-mate')).token;
  });
  afterAll(() => ctx?.close());

  const post = (token: string, url: string, body: Record<string, string | number | boolean>, lang = 'en') => {
    const f = form(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])));
    return ctx.call({ method: 'POST', url, headers: { ...auth(token), ...f.headers, 'accept-language': lang }, payload: f.payload });
  };
  const add = (token: string, body: Record<string, string | boolean>, lang?: string) => post(token, '/api/views/add', { screen: 'txn.list', shared: false, ...body }, lang);
  const list = (token: string, screen = 'txn.list') => ctx.call({ method: 'GET', url: '/api/views', headers: auth(token), query: { screen } });
  const get = (token: string, id: number) => ctx.call({ method: 'GET', url: `/api/views/${id}`, headers: auth(token) });

  it('saves, lists, renames, sets as default and deletes a view', async () => {
    const a = await add(demo, { name: 'Failed this week', query: 'begin=2026-11-01+00%3A00%3A00&gwResponse=05&tz=8' });
    expect(a.body.code, a.body.msg).toBe(0);
    expect(a.body.data).toMatchObject({ name: 'Failed this week', query: 'begin=2026-11-01+00%3A00%3A00&gwResponse=05&tz=8', shared: false, mine: true, ownerName: 'demo', isDefault: false });
    const id = a.body.data.id;
    expect((await list(demo)).body.data.content.map((v: any) => v.id)).toEqual([id]);
    const u = await post(demo, `/api/views/${id}/update`, { name: 'Failed, 7 days' });
    expect(u.body.data).toMatchObject({ name: 'Failed, 7 days', query: a.body.data.query });
    expect((await post(demo, '/api/views/default', { screen: 'txn.list', viewId: id })).body.code).toBe(0);
    expect((await list(demo)).body.data.content[0].isDefault).toBe(true);
    expect((await post(demo, '/api/views/default', { screen: 'txn.list' })).body.code).toBe(0);
    expect((await list(demo)).body.data.content[0].isDefault).toBe(false);
    expect((await post(demo, `/api/views/${id}/remove`, {})).body.code).toBe(0);
    expect((await list(demo)).body.data.totalElements).toBe(0);
    expect((await get(demo, id)).status).toBe(404);
  });

  it('refuses bad input: names, query strings of other keys, oversize, duplicates', async () => {
    const bad: Record<string, string>[] = [
      { name: '', query: 'tz=8' },
      { name: 'x'.repeat(41), query: 'tz=8' },
      { name: 'a\u0007b', query: 'tz=8' },
      { name: 'ok', query: 'evil=1' },
      { name: 'ok', query: '?tz=8' },
      { name: 'ok', query: 'tz=8&tz=9' },
      { name: 'ok', query: 'page=3' },
      { name: 'ok', query: `orderNum=${'x'.repeat(201)}` },
      { name: 'ok', query: 'orderNum=%E0%A4%A' },
      { name: 'ok', query: 'orderNum=a%0Ab' },
      {
        name: 'ok',
        query: `merReserve=${'y'.repeat(190)}&orderNum=${'x'.repeat(190)}&channelOrderNum=${'z'.repeat(190)}&originOrderNum=${'w'.repeat(190)}&gwTranType=${'v'.repeat(190)}&begin=${'u'.repeat(100)}`,
      },
    ];
    for (const b of bad) {
      const r = await add(demo, b);
      expect(r.status, JSON.stringify(b).slice(0, 60)).toBe(400);
      expect(r.body.code).toBe(Code.BAD_REQUEST);
    }
    expect((await add(demo, { name: 'ok', query: 'evil=1' }, 'ja')).body.msg).toMatch(/保存できません/);
    expect((await post(demo, '/api/views/add', { screen: 'nope', name: 'x', query: '' })).status).toBe(400);
    expect((await add(demo, { name: 'Twice', query: '' })).body.code).toBe(0);
    const dup = await add(demo, { name: 'twice', query: 'tz=8' });
    expect([dup.status, dup.body.code]).toEqual([200, Code.CONFLICT]);
  });

  it('shares a view with the team: a teammate opens it by link, cannot change it, may take it as default', async () => {
    const a = await add(sub, { name: 'Shanghai WeChat', query: 'merId=100000000000002&paymentBrand=wechat_pay', shared: true });
    expect(a.body.code, a.body.msg).toBe(0);
    const id = a.body.data.id;
    const seen = await get(mate, id);
    expect(seen.body.data).toMatchObject({ id, mine: false, ownerName: DEMO.users.sub, shared: true });
    expect((await list(mate)).body.data.content.map((v: any) => v.id)).toContain(id);
    // The group's main user is of the same team too.
    expect((await get(demo, id)).body.code).toBe(0);
    const change = await post(mate, `/api/views/${id}/update`, { name: 'Mine now' });
    expect([change.status, change.body.code]).toEqual([403, Code.FORBIDDEN]);
    expect((await post(mate, `/api/views/${id}/remove`, {})).status).toBe(403);
    expect((await post(mate, '/api/views/default', { screen: 'txn.list', viewId: id })).body.code).toBe(0);
    expect((await list(mate)).body.data.content.find((v: any) => v.id === id).isDefault).toBe(true);
    // Unshared: the teammate no longer sees it, nor keeps it as default.
    expect((await post(sub, `/api/views/${id}/update`, { shared: false })).body.data.shared).toBe(false);
    expect((await get(mate, id)).status).toBe(404);
    expect((await list(mate)).body.data.content.map((v: any) => v.id)).not.toContain(id);
    // A view on a screen of another screen's id is refused as absent.
    expect((await post(demo, '/api/views/default', { screen: 'payByLink.list', viewId: id })).status).toBe(404);
  });

  it("another merchant's user never sees, opens, changes or defaults a view", async () => {
    const a = await add(demo, { name: 'Group shared', query: 'tz=8', shared: true });
    const id = a.body.data.id;
    expect((await list(other)).body.data.content).toEqual([]);
    expect((await get(other, id)).status).toBe(404);
    expect((await post(other, `/api/views/${id}/update`, { name: 'x' })).status).toBe(404);
    expect((await post(other, `/api/views/${id}/remove`, {})).status).toBe(404);
    expect((await post(other, '/api/views/default', { screen: 'txn.list', viewId: id })).status).toBe(404);
    expect(JSON.stringify((await list(other)).body)).not.toContain('Group shared');
  });

  it("needs the screen's permission (403), for own and shared views alike", async () => {
    // demo-sub holds no user management: not its screen.
    const r = await post(sub, '/api/views/add', { screen: 'merchant.user', name: 'x', query: '' });
    expect([r.status, r.body.code]).toEqual([403, Code.FORBIDDEN]);
    expect((await list(sub, 'merchant.user')).status).toBe(403);
    const a = await add(sub, { name: 'For the list', query: 'tz=8', shared: true });
    await revoke(ctx.db, 'view-mate', Perm.txnList);
    expect((await get(mate, a.body.data.id)).status).toBe(403);
    expect((await list(mate)).status).toBe(403);
    expect((await list(mate, 'payByLink.list')).body.code).toBe(0);
  });

  it('keeps views of the settlement, logistics, merchant and document screens, each with its own filters only', async () => {
    const cases: [string, string, string][] = [
      ['settle.detail', 'beginDate=2026-10-01&endDate=2026-10-31&merId=100000000000002&setCur=HKD', 'orderNum=A1'],
      ['settle.list', 'beginDate=2026-10-01&busLine=CARD&clientid=100000000000002&endDate=2026-10-01&setCur=HKD', 'keyword=x'],
      ['logistics.list', 'beginDate=2026-10-01&endDate=2026-10-31&shipmentNo=SF1001', 'gwResponse=00'],
      ['merchant.list', 'attribute=SUB_MERCHANT&keyword=Shanghai', 'merId=1'],
      ['files.documents', 'currency=HKD&kind=STATEMENT_PDF&periodFrom=2026-09&periodTo=2026-10', 'beginDate=2026-10-01'],
    ];
    for (const [screen, query, foreign] of cases) {
      const a = await post(demo, '/api/views/add', { screen, name: `On ${screen}`, query, shared: false });
      expect(a.body.code, `${screen}: ${a.body.msg}`).toBe(0);
      expect((await list(demo, screen)).body.data.content.map((v: any) => v.query)).toEqual([query]);
      const bad = await post(demo, '/api/views/add', { screen, name: 'Foreign key', query: foreign, shared: false });
      expect([bad.status, bad.body.code], screen).toEqual([400, Code.BAD_REQUEST]);
    }
    // Another merchant's user sees none of them.
    for (const [screen] of cases) expect((await list(other, screen)).body.data?.content ?? [], screen).toEqual([]);
  });
});
