import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addOperator, opsLogin } from './ops.fixtures';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const file = (name: string, body: Buffer) => ({ name, contentBase64: body.toString('base64') });

/** Notices in the back office (decision 044): write, target, schedule, edit, withdraw — and what merchants see. Both engines. */
describe.each(DB_KINDS)('ops notices (%s)', (kind) => {
  let ctx: TestCtx;
  let support: string;
  let onboarding: string;
  let reader: string;
  let risk: string;
  const m: Record<string, string> = {};
  const h = (token: string, lang = 'en') => ({ 'x-token': token, 'accept-language': lang });
  const post = (token: string, url: string, payload: unknown, lang = 'en') => ctx.call({ method: 'POST', url, headers: h(token, lang), payload: payload as Record<string, unknown> });
  const seen = async (user: string) => (await ctx.call({ method: 'GET', url: '/api/notice/list?size=100', headers: h(m[user]) })).body.data.content.map((n: { id: number }) => n.id) as number[];
  const detail = (user: string, id: number) => ctx.call({ method: 'GET', url: `/api/notice/detail/${id}`, headers: h(m[user]) });
  const download = (user: string, id: number) => ctx.app.inject({ method: 'GET', url: `/api/notice/attachment/${id}`, headers: { 'x-token': m[user] } });
  const files = async (user: string) =>
    (await ctx.call({ method: 'GET', url: '/api/files/list?kind=NOTICE_ATTACHMENT&size=100', headers: h(m[user]) })).body.data.content.map((f: { id: number }) => f.id) as number[];
  const auditOf = async (id: number) =>
    (
      await ctx.db.query<{ action: string; username: string; operator_id: number | null; detail: any; ip: string | null }>(
        `SELECT action, username, operator_id, detail, ip FROM audit_log WHERE target = $1 ORDER BY id`,
        [`notice:${id}`],
      )
    ).rows;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    for (const [name, role] of [
      ['nt-support', 'support'],
      ['nt-onboarding', 'onboarding'],
      ['nt-reader', 'read-only'],
      ['nt-risk', 'risk'],
    ] as const) {
      const o = await addOperator(ctx, name, role);
      const token = await opsLogin(ctx, name, o.secret);
      if (role === 'support') support = token;
      else if (role === 'onboarding') onboarding = token;
      else if (role === 'read-only') reader = token;
      else risk = token;
    }
    for (const u of Object.values(DEMO.users)) m[u] = (await ctx.login(u)).token;
  }, 120_000);
  afterAll(() => ctx?.close());

  it('support writes a notice to one merchant with a PDF: that merchant reads and downloads it; another merchant sees nothing of it; audited', async () => {
    const res = await post(support, '/api/ops/notices', {
      title: 'New terms',
      content: 'Line one\nLine two',
      target: 'merchants',
      merchants: [DEMO.other],
      files: [file('../../terms\u202Efdp.exe\u202C.pdf', PDF)],
    });
    expect(res.body.code, res.body.msg).toBe(0);
    const n = res.body.data;
    expect(n).toMatchObject({ status: 'published', target: 'merchants', merchants: [DEMO.other], groupId: null, createdBy: 'nt-support', withdrawnAt: null });
    expect(n.attachments).toEqual([{ id: expect.any(Number), fileName: 'termsfdp.exe.pdf', format: 'pdf', sizeBytes: PDF.length }]);
    const att = n.attachments[0].id;
    expect(await seen(DEMO.users.other)).toContain(n.id);
    expect((await detail(DEMO.users.other, n.id)).body.data).toMatchObject({ title: 'New terms', content: 'Line one\nLine two' });
    const dl = await download(DEMO.users.other, att);
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(PDF)).toBe(true);
    expect(await files(DEMO.users.other)).toContain(att);
    // The group's users: not in the list, 404 on the detail and on the file, not in /files.
    for (const u of [DEMO.users.demo, DEMO.users.sub]) {
      expect(await seen(u)).not.toContain(n.id);
      expect((await detail(u, n.id)).status).toBe(404);
      expect((await download(u, att)).statusCode).toBe(404);
    }
    expect(await files(DEMO.users.demo)).not.toContain(att);
    const [a] = await auditOf(n.id);
    expect(a).toMatchObject({ action: 'ops.notice.create', username: 'nt-support', ip: expect.any(String) });
    expect(a.operator_id).toEqual(expect.any(Number));
    expect(a.detail.after).toMatchObject({ title: 'New terms', status: 'published', merchants: [DEMO.other], attachments: ['termsfdp.exe.pdf'] });
  });

  it('a group notice reaches the group and its sub-merchants, not another merchant; every-merchant notices reach all', async () => {
    const g = (await post(onboarding, '/api/ops/notices', { title: 'Group news', content: 'x', target: 'group', groupId: DEMO.group })).body.data;
    expect(g).toMatchObject({ status: 'published', target: 'group', groupId: DEMO.group });
    expect(await seen(DEMO.users.demo)).toContain(g.id);
    expect(await seen(DEMO.users.sub)).toContain(g.id);
    expect(await seen(DEMO.users.other)).not.toContain(g.id);
    const all = (await post(support, '/api/ops/notices', { title: 'Everyone', content: 'x', target: 'all', level: 'important' })).body.data;
    for (const u of Object.values(DEMO.users)) expect(await seen(u)).toContain(all.id);
    // The list counts (the portal's unread badge reads totalElements) follow the same rule.
    const count = async (u: string) => (await ctx.call({ method: 'GET', url: '/api/notice/list?size=10', headers: h(m[u]) })).body.data.totalElements as number;
    const before = await count(DEMO.users.other);
    await post(support, '/api/ops/notices', { title: 'Only the group', content: 'x', target: 'group', groupId: DEMO.group });
    expect(await count(DEMO.users.other)).toBe(before);
  });

  it('schedules in the operator zone: invisible before, editable while scheduled, visible after, no longer editable', async () => {
    ctx.clock.set('2026-11-20T03:00:00Z'); // 11:00 in Shanghai
    const at = { publishAt: '2026-11-21 09:30:00', timeZone: 'Asia/Shanghai' };
    const res = await post(support, '/api/ops/notices', {
      title: 'Maintenance',
      content: 'Saturday',
      target: 'merchants',
      merchants: [DEMO.subA],
      ...at,
      files: [file('plan.csv', Buffer.from('a,b\n1,2\n')), file('map.pdf', PDF)],
    });
    expect(res.body.code, res.body.msg).toBe(0);
    const n = res.body.data;
    expect(n).toMatchObject({ status: 'scheduled', publishedAt: '2026-11-21T01:30:00.000Z' });
    expect(await seen(DEMO.users.sub)).not.toContain(n.id);
    expect((await detail(DEMO.users.sub, n.id)).status).toBe(404);
    expect((await download(DEMO.users.demo, n.attachments[0].id)).statusCode).toBe(404);
    expect(await files(DEMO.users.demo)).not.toContain(n.attachments[0].id);
    const edited = await post(support, `/api/ops/notices/${n.id}`, {
      title: 'Maintenance (moved)',
      content: 'Sunday',
      target: 'group',
      groupId: DEMO.group,
      ...at,
      publishAt: '2026-11-22 09:30:00',
      removeAttachments: [n.attachments[0].id],
    });
    expect(edited.body.code, edited.body.msg).toBe(0);
    expect(edited.body.data).toMatchObject({ status: 'scheduled', title: 'Maintenance (moved)', target: 'group', merchants: [], publishedAt: '2026-11-22T01:30:00.000Z' });
    expect(edited.body.data.attachments.map((a: { fileName: string }) => a.fileName)).toEqual(['map.pdf']);
    const [, e] = await auditOf(n.id);
    expect(e).toMatchObject({ action: 'ops.notice.edit', username: 'nt-support' });
    expect(e.detail.before).toMatchObject({ title: 'Maintenance', target: 'merchants', attachments: ['plan.csv', 'map.pdf'] });
    expect(e.detail.after).toMatchObject({ title: 'Maintenance (moved)', target: 'group', attachments: ['map.pdf'] });
    ctx.clock.set('2026-11-22T01:30:00Z');
    expect(await seen(DEMO.users.sub)).toContain(n.id);
    expect((await download(DEMO.users.demo, edited.body.data.attachments[0].id)).statusCode).toBe(200);
    const list = (await ctx.call({ method: 'GET', url: '/api/ops/notices?status=published', headers: h(reader) })).body.data;
    expect(list.content.map((x: { id: number }) => x.id)).toContain(n.id);
    const late = await post(support, `/api/ops/notices/${n.id}`, { title: 'Too late', content: 'x', target: 'all' });
    expect(late.status).toBe(409);
    expect(late.body.msg).toBe('Only a notice not yet published can be edited');
  });

  it('withdraws: gone for merchants (list, detail, file, /files), kept for the record with before/after', async () => {
    const n = (
      await post(support, '/api/ops/notices', { title: 'Wrong rates', content: 'x', target: 'all', files: [file('rates.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))] })
    ).body.data;
    const att = n.attachments[0].id;
    expect((await download(DEMO.users.other, att)).statusCode).toBe(200);
    const w = await post(onboarding, `/api/ops/notices/${n.id}/withdraw`, {});
    expect(w.body.code, w.body.msg).toBe(0);
    expect(w.body.data).toMatchObject({ status: 'withdrawn', withdrawnBy: 'nt-onboarding', withdrawnAt: expect.any(String) });
    for (const u of Object.values(DEMO.users)) {
      expect(await seen(u)).not.toContain(n.id);
      expect((await detail(u, n.id)).status).toBe(404);
      expect((await download(u, att)).statusCode).toBe(404);
      expect(await files(u)).not.toContain(att);
    }
    const rec = await ctx.call({ method: 'GET', url: `/api/ops/notices/${n.id}`, headers: h(reader) });
    expect(rec.body.data).toMatchObject({ status: 'withdrawn', title: 'Wrong rates', attachments: [{ id: att }] });
    const last = (await auditOf(n.id)).at(-1)!;
    expect(last).toMatchObject({ action: 'ops.notice.withdraw', username: 'nt-onboarding' });
    expect(last.detail).toMatchObject({ before: { status: 'published', withdrawnAt: null }, after: { status: 'withdrawn' } });
    const again = await post(support, `/api/ops/notices/${n.id}/withdraw`, {}, 'ja');
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('このお知らせは既に取り下げられています');
    expect((await post(support, '/api/ops/notices/999999/withdraw', {})).status).toBe(404);
  });

  it('refuses bad input, with the message in the caller’s language', async () => {
    const base = { title: 'T', content: 'C', target: 'all' };
    const cases: [unknown, number][] = [
      [{ ...base, publishAt: '2026-02-30 10:00:00', timeZone: 'Asia/Shanghai' }, Code.BAD_REQUEST], // not a date
      [{ ...base, publishAt: '2026-12-01T10:00', timeZone: 'Asia/Shanghai' }, Code.BAD_REQUEST], // not the format
      [{ ...base, publishAt: '2026-12-01 10:00:00' }, Code.BAD_REQUEST], // no zone
      [{ ...base, publishAt: '2026-12-01 10:00:00', timeZone: 'Mars/Olympus' }, Code.BAD_REQUEST],
      [{ ...base, publishAt: '2020-01-01 10:00:00', timeZone: 'Asia/Shanghai' }, Code.BAD_REQUEST], // past
      [{ ...base, publishAt: '2027-03-14 02:30:00', timeZone: 'America/New_York' }, Code.BAD_REQUEST], // skipped by the clocks
      [{ ...base, target: 'merchants', merchants: [] }, Code.BAD_REQUEST],
      [{ ...base, target: 'merchants', merchants: ['999999999999999'] }, Code.BAD_REQUEST],
      [{ ...base, target: 'group', groupId: DEMO.subA }, Code.BAD_REQUEST], // not a group
      [{ ...base, title: 'a\u0007b' }, Code.BAD_REQUEST],
      [{ ...base, title: '' }, Code.BAD_REQUEST],
      [{ ...base, files: [file('evil.pdf', Buffer.from('MZ\u0090\u0000'))] }, Code.BAD_REQUEST], // not a PDF by content
      [{ ...base, files: [{ name: 'x.pdf', contentBase64: 'not base64!' }] }, Code.BAD_REQUEST],
    ];
    const before = (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM notice')).rows[0].n;
    for (const [body, code] of cases) {
      const msgs = new Set<string>();
      for (const lang of ['en', 'zh', 'ko', 'ja']) {
        const res = await post(support, '/api/ops/notices', body, lang);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe(code);
        msgs.add(res.body.msg);
      }
      expect(msgs.size, JSON.stringify(body)).toBe(4);
    }
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM notice')).rows[0].n).toBe(before);
    const zh = await post(support, '/api/ops/notices', { ...base, files: [file('evil.pdf', Buffer.from('MZ'))] }, 'zh');
    expect(zh.body.msg).toBe('evil.pdf：只能附加 PDF、CSV、PNG 或 JPG 文件');
  });

  it('roles: read-only and risk read the list but may not write, edit or withdraw', async () => {
    const any = (await ctx.call({ method: 'GET', url: '/api/ops/notices?size=1', headers: h(risk) })).body.data.content[0];
    for (const t of [reader, risk]) {
      expect((await ctx.call({ method: 'GET', url: '/api/ops/notices', headers: h(t) })).body.code).toBe(0);
      for (const url of ['/api/ops/notices', `/api/ops/notices/${any.id}`, `/api/ops/notices/${any.id}/withdraw`]) {
        const res = await post(t, url, { title: 'T', content: 'C', target: 'all' });
        expect(res.status, url).toBe(403);
        expect(res.body.code).toBe(Code.FORBIDDEN);
      }
    }
    // Described in the ops OpenAPI document with the roles that may call each route.
    const doc = (await ctx.call({ method: 'GET', url: '/api/ops/docs/json' })).body as unknown as { paths: Record<string, Record<string, { description?: string }>> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/ops/notices', '/api/ops/notices/{id}', '/api/ops/notices/{id}/withdraw']));
    expect(doc.paths['/api/ops/notices'].post.description).toContain('Roles: administrator, support, onboarding.');
    // A merchant user's token is not an operator's.
    expect((await ctx.call({ method: 'GET', url: '/api/ops/notices', headers: h(m[DEMO.users.demo]) })).status).toBe(401);
  });
});
