import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readOutbox } from '../../plugins/mail';
import { sha256 } from '../../lib/crypto';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { consumeLink, findLink, linkUsable, sendActivation, sendPasswordReset } from './links.service';
import { endUserSessions } from '../user';

const tokenIn = (text: string, path: string) => new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(text)?.[1];

describe.each(DB_KINDS)('account links on %s', (kind) => {
  let ctx: TestCtx;
  let subId: number;
  beforeEach(async () => {
    ctx = await createTestApp({ kind, config: { publicUrl: 'https://portal.example' } });
    subId = (await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [DEMO.users.sub])).rows[0].id;
  });
  afterEach(() => ctx.close());

  it('mails a single-use activation link (256-bit token, stored hashed, 72 h) in the language asked, audit-logged', async () => {
    await ctx.db.tx((q) => sendActivation(ctx.deps, q, subId, 'zh', { ip: '10.0.0.1', userAgent: 'test', byUserId: 1 }));
    const [mail] = await readOutbox(ctx.outbox);
    expect(mail.to).toBe('demo-sub@demo-group.example');
    expect(mail.subject).toBe('激活您的商户平台账号');
    expect(mail.text).toContain('Demo Store Shanghai');
    const token = tokenIn(mail.text, 'https://portal.example/user/active')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await ctx.db.query<{ token_hash: string; created_at: Date; expires_at: Date }>('SELECT token_hash, created_at, expires_at FROM account_link');
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].token_hash).not.toContain(token);
    expect(new Date(stored.rows[0].expires_at).getTime() - new Date(stored.rows[0].created_at).getTime()).toBe(72 * 3600 * 1000);
    const audit = await ctx.db.query<{ action: string; user_id: number; mer_id: string; ip: string; detail: { byUserId: number } }>(
      `SELECT action, user_id, mer_id, ip, detail FROM audit_log WHERE action = 'account.activation.sent'`,
    );
    expect(audit.rows[0]).toMatchObject({ user_id: subId, mer_id: DEMO.subA, ip: '10.0.0.1', detail: { byUserId: 1 } });

    const now = ctx.clock.now();
    expect(linkUsable(await findLink(ctx.db, token, 'activate'), now)).toBe(true);
    expect(await findLink(ctx.db, token, 'reset')).toBeUndefined();
    expect(await consumeLink(ctx.db, token, 'activate', now)).toBe(subId);
    expect(await consumeLink(ctx.db, token, 'activate', now)).toBeNull(); // single use
  });

  it('a reset link lives 30 minutes; a newer link supersedes the older one', async () => {
    await ctx.db.tx((q) => sendPasswordReset(ctx.deps, q, subId, 'en', {}));
    const first = tokenIn((await readOutbox(ctx.outbox))[0].text, '/user/reset')!;
    ctx.clock.advance(1000);
    await ctx.db.tx((q) => sendPasswordReset(ctx.deps, q, subId, 'en', {}));
    const second = tokenIn((await readOutbox(ctx.outbox))[0].text, '/user/reset')!;
    expect(second).not.toBe(first);
    const now = ctx.clock.now();
    expect(await consumeLink(ctx.db, first, 'reset', now)).toBeNull();
    expect(await consumeLink(ctx.db, second, 'reset', new Date(now.getTime() + 30 * 60 * 1000 + 1))).toBeNull(); // expired
    expect(await consumeLink(ctx.db, second, 'reset', new Date(now.getTime() + 29 * 60 * 1000))).toBe(subId);
    expect((await ctx.db.query(`SELECT 1 FROM audit_log WHERE action = 'account.reset.sent'`)).rows).toHaveLength(2);
  });

  it('concurrent uses of one link: exactly one wins', async () => {
    await ctx.db.tx((q) => sendPasswordReset(ctx.deps, q, subId, 'en', {}));
    const token = tokenIn((await readOutbox(ctx.outbox))[0].text, '/user/reset')!;
    const now = ctx.clock.now();
    const results = await Promise.all(Array.from({ length: 8 }, () => ctx.db.tx((q) => consumeLink(q, token, 'reset', now))));
    expect(results.filter((r) => r === subId)).toHaveLength(1);
  });

  it('a mail that cannot go leaves no usable link and says so', async () => {
    const failing = { ...ctx.deps, mailer: { target: 'x', send: async () => Promise.reject(new Error('smtp down')) } };
    await expect(ctx.db.tx((q) => sendActivation(failing, q, subId, 'en', {}))).rejects.toMatchObject({ key: 'sendMailFailed' });
    expect((await ctx.db.query('SELECT 1 FROM account_link')).rows).toHaveLength(0); // the caller's transaction rolled back
  });

  it('endUserSessions ends every open session of the user but the one kept', async () => {
    const a = await ctx.login(DEMO.users.sub);
    const b = await ctx.login(DEMO.users.sub);
    const other = await ctx.login(DEMO.users.demo);
    const sessionOf = async (token: string) => (await ctx.db.query<{ session_id: number }>('SELECT session_id FROM access_token WHERE token_hash = $1', [sha256(token)])).rows[0].session_id;
    const keep = await sessionOf(a.token);
    expect(await endUserSessions(ctx.db, subId, 'test', keep)).toBe(1);
    const info = (token: string) => ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': token } });
    expect((await info(a.token)).body.code).toBe(0);
    expect((await info(b.token)).body.code).toBe(50014);
    expect((await info(other.token)).body.code).toBe(0);
    expect(await endUserSessions(ctx.db, subId, 'test')).toBe(1);
    expect((await info(a.token)).body.code).toBe(50014);
  });
});
