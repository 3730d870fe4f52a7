import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';

describe.each(DB_KINDS)('notices on %s', (kind) => {
  let ctx: TestCtx;
  const tokens: Record<string, string> = {};
  let privateId = 0;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    for (const u of Object.values(DEMO.users)) tokens[u] = (await ctx.login(u)).token;
    const t = JSON.stringify({ en: 'Only for Other', zh: '仅限', ko: '전용', ja: '専用' });
    const r = await ctx.db.query<{ id: number }>(`INSERT INTO notice (title, summary, content, mer_id) VALUES ($1,$1,$1,$2) RETURNING id`, [t, DEMO.other]);
    privateId = r.rows[0].id;
  });
  afterAll(() => ctx.close());
  const get = (url: string, user: string, lang = 'en') => ctx.call({ method: 'GET', url, headers: { 'x-token': tokens[user], 'accept-language': lang } });

  it("lists notices newest first in the caller's language, paged", async () => {
    const res = await get('/api/notice/list?page=0&size=10', DEMO.users.demo, 'ja');
    expect(res.body.code).toBe(0);
    expect(res.body.data.totalElements).toBe(3);
    expect(res.body.data.content[0].title).toBe('サマリーレポートが決済ブランド別になりました');
    expect(res.body.data.content[0].link).toBe('/report/txn?version=old');
    const page1 = await get('/api/notice/list?page=1&size=5', DEMO.users.demo);
    expect(page1.body.data.content).toHaveLength(0);
    expect(page1.body.data.totalElements).toBe(3);
  });

  it("shows a notice's detail and hides another merchant's notice", async () => {
    const list = (await get('/api/notice/list', DEMO.users.demo)).body.data.content;
    const d = await get(`/api/notice/detail/${list[0].id}`, DEMO.users.demo, 'zh');
    expect(d.body.data.content).toContain('每日汇总报表已升级');
    const hidden = await get(`/api/notice/detail/${privateId}`, DEMO.users.demo);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe(Code.NOT_FOUND);
    expect((await get(`/api/notice/detail/${privateId}`, DEMO.users.other)).body.data.title).toBe('Only for Other');
    expect((await get('/api/notice/list', DEMO.users.other)).body.data.totalElements).toBe(4);
  });

  it('rejects bad input', async () => {
    expect((await get('/api/notice/list?size=7', DEMO.users.demo)).body.code).toBe(Code.BAD_REQUEST);
    expect((await get('/api/notice/list?page=-1', DEMO.users.demo)).body.code).toBe(Code.BAD_REQUEST);
    expect((await get('/api/notice/detail/abc', DEMO.users.demo)).body.code).toBe(Code.BAD_REQUEST);
  });

  it('refuses a user without the notice permission', async () => {
    await ctx.db.query(`UPDATE app_user SET permissions = array_remove(permissions, 'notice:list') WHERE username = $1`, [DEMO.users.sub]);
    const res = await get('/api/notice/list', DEMO.users.sub);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: Code.FORBIDDEN, msg: 'You do not have permission for this operation' });
  });
});
