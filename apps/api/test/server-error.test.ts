import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, type TestCtx } from './helpers';

/**
 * An unexpected failure answers 500 with the envelope, no internals, and the request id a merchant
 * can quote to support — in the message they read and in `requestId` (issue 27, "Logs").
 */
describe('a 500 carries the reference to quote', () => {
  let ctx: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp({ kind: 'pglite' });
  }, 120_000);
  afterAll(async () => ctx?.close());

  it.each([
    ['en', /^Internal server error, please try again later \(reference (\S+) for support\)$/],
    ['zh', /^服务器内部错误，请稍后重试（联系客服请提供参考号 (\S+)）$/],
  ])('%s', async (lang, re) => {
    const { token } = await ctx.login();
    await ctx.db.query('ALTER TABLE notice RENAME TO notice_gone');
    try {
      const r = await ctx.call({ method: 'GET', url: '/api/notice/list?page=0&size=10', headers: { 'x-token': token, 'accept-language': lang } });
      expect(r.status).toBe(500);
      expect(r.body.code).toBe(Code.SERVER_ERROR);
      const ref = re.exec(r.body.msg)?.[1];
      expect(ref, r.body.msg).toBeTruthy();
      expect(ref).toBe(r.headers['x-request-id']);
      expect((r.body as unknown as { requestId: string }).requestId).toBe(ref);
      expect(r.body.msg).not.toMatch(/notice|relation|SQL/i);
    } finally {
      await ctx.db.query('ALTER TABLE notice_gone RENAME TO notice');
    }
  });
});
