import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { attachmentFormat, seedNoticeAttachment } from './attachment.service';
import { createNotice } from '../ops/notices.service';
import { opsNoticeSchema } from '@portal/contract';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.each(DB_KINDS)('notice attachments on %s', (kind) => {
  let ctx: TestCtx;
  const tokens: Record<string, string> = {};
  let privateNotice = 0;
  let privateFile = 0;
  let publicNotice = 0;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await seedNoticeAttachment(ctx.db, ctx.config.dataDir);
    publicNotice = (await ctx.db.query<{ id: number }>('SELECT notice_id AS id FROM notice_attachment')).rows[0].id;
    const r = await createNotice(
      { db: ctx.db, dataDir: ctx.config.dataDir, now: new Date(Date.now() - 60_000) },
      opsNoticeSchema.parse({ title: 'Rates for Other', content: 'Rates', target: 'merchants', merchants: [DEMO.other], files: [{ name: 'rates.csv', contentBase64: b64('a,b\r\n1,2\r\n') }] }),
      { cli: true },
      {},
    );
    privateNotice = r.id;
    privateFile = r.attachments[0].id;
    await ctx.db.query(`UPDATE app_user SET permissions = array_remove(array_remove(permissions, 'files:download'), 'notice:list') WHERE username = $1`, [DEMO.users.sub]);
    for (const u of Object.values(DEMO.users)) tokens[u] = (await ctx.login(u)).token;
  }, 120_000);
  afterAll(() => ctx?.close());
  const get = (url: string, user: string = DEMO.users.demo) => ctx.call({ method: 'GET', url, headers: { 'x-token': tokens[user], 'accept-language': 'en' } });
  const raw = (url: string, user: string = DEMO.users.demo) => ctx.app.inject({ method: 'GET', url, headers: { 'x-token': tokens[user] } });

  it('shows the attachments on the notice and in /files; downloads them (no-store, RFC 6266 name)', async () => {
    const n = (await get(`/api/notice/detail/${publicNotice}`)).body.data;
    expect(n.attachments).toEqual([{ id: expect.any(Number), fileName: 'Service terms - summary of changes.pdf', format: 'pdf', sizeBytes: expect.any(Number) }]);
    const files = (await get('/api/files/list?kind=NOTICE_ATTACHMENT')).body.data;
    expect(files.totalElements).toBe(1);
    expect(files.content[0]).toMatchObject({ id: n.attachments[0].id, noticeId: publicNotice, merId: null, kind: 'NOTICE_ATTACHMENT', format: 'pdf' });
    const res = await raw(`/api/notice/attachment/${n.attachments[0].id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''Service%20terms%20-%20summary%20of%20changes.pdf");
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // other-main sees both its own and the public one
    const theirs = (await get('/api/files/list?kind=NOTICE_ATTACHMENT', DEMO.users.other)).body.data;
    expect(theirs.totalElements).toBe(2);
    const csv = await raw(`/api/notice/attachment/${privateFile}`, DEMO.users.other);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toBe('a,b\r\n1,2\r\n');
  });

  it("refuses bad input, a user without the permission, and another merchant's attachment (404)", async () => {
    expect((await raw('/api/notice/attachment/x')).statusCode).toBe(400);
    expect((await raw('/api/notice/attachment/0')).statusCode).toBe(400);
    expect((await raw(`/api/notice/attachment/${privateFile}`)).statusCode).toBe(404);
    expect((await get(`/api/notice/detail/${privateNotice}`)).status).toBe(404);
    expect((await raw(`/api/notice/attachment/${privateFile}`, DEMO.users.sub)).statusCode).toBe(403);
    expect(attachmentFormat('x.exe', Buffer.from('MZ...'))).toBeNull();
    await expect(
      createNotice(
        { db: ctx.db, dataDir: ctx.config.dataDir, now: new Date() },
        opsNoticeSchema.parse({ title: 'bad', content: 'bad', target: 'all', files: [{ name: 'x.exe', contentBase64: b64('MZ') }] }),
        { cli: true },
        {},
      ),
    ).rejects.toThrow(/opsNoticeFileKind/);
  });
});
