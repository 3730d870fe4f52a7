import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';

describe.each(DB_KINDS)('sign-in under attack on %s', (kind) => {
  let ctx: TestCtx;
  beforeEach(async () => {
    ctx = await createTestApp({ kind });
  });
  afterEach(() => ctx.close());

  const login = (password: string, i = 0) =>
    ctx.call({ method: 'POST', url: '/api/user/login', remoteAddress: `10.1.${Math.floor(i / 250)}.${i % 250}`, payload: { username: DEMO.users.demo, password, verifyCode: '000000' } });
  const verifiedWrong = async () =>
    (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE username = $1 AND detail->>'reason' = 'wrong-password'`, [DEMO.users.demo])).rows[0].n;

  it('24 wrong passwords at the same moment: exactly 5 are checked, the rest meet the lock, and so does the right password', async () => {
    const all = await Promise.all(Array.from({ length: 24 }, (_, i) => login(`guess${i}xyz`, i)));
    const codes = all.map((r) => r.body.code);
    expect(codes.filter((c) => c === Code.WRONG_PASSWORD)).toHaveLength(4);
    expect(codes.filter((c) => c === Code.USER_LOCKED)).toHaveLength(20);
    expect(
      all
        .filter((r) => r.body.code === Code.WRONG_PASSWORD)
        .map((r) => r.body.data.remaining)
        .sort(),
    ).toEqual([1, 2, 3, 4]);
    expect(await verifiedWrong()).toBe(5);
    const row = (await ctx.db.query<{ failed_logins: number; locked_until: Date }>('SELECT failed_logins, locked_until FROM app_user WHERE username = $1', [DEMO.users.demo])).rows[0];
    expect(row.failed_logins).toBe(5);
    expect(new Date(row.locked_until).getTime()).toBeGreaterThan(ctx.clock.now().getTime() + 29 * 60000);
    expect((await login(DEMO.password)).body.code).toBe(Code.USER_LOCKED);
    expect(await verifiedWrong()).toBe(5);
    expect((await ctx.db.query(`SELECT 1 FROM audit_log WHERE username = $1 AND action = 'auth.lockout'`, [DEMO.users.demo])).rows).toHaveLength(1);
  });

  it('right passwords among concurrent wrong ones give their slot back (never counted as failures)', async () => {
    for (let i = 0; i < 2; i++) await login(`guess${i}xyz`, i);
    const all = await Promise.all([login('guess7xyz', 7), ...Array.from({ length: 2 }, (_, i) => login(DEMO.password, 10 + i))]);
    expect(all.map((r) => r.body.code).sort()).toEqual([Code.WRONG_PASSWORD, Code.VERIFY_CODE_ERROR, Code.VERIFY_CODE_ERROR].sort()); // right password, wrong code
    const row = (await ctx.db.query<{ failed_logins: number; locked_until: Date | null }>('SELECT failed_logins, locked_until FROM app_user WHERE username = $1', [DEMO.users.demo])).rows[0];
    expect(row).toEqual({ failed_logins: 3, locked_until: null });
    expect(await verifiedWrong()).toBe(3);
  });

  it('the lock ends after 30 minutes: counting starts again', async () => {
    for (let i = 0; i < 5; i++) await login(`guess${i}xyz`, i);
    expect((await login(DEMO.password)).body.code).toBe(Code.USER_LOCKED);
    ctx.clock.advance(30 * 60000 + 1000);
    const again = await login('guess9xyz');
    expect(again.body).toMatchObject({ code: Code.WRONG_PASSWORD, data: { remaining: 4 } });
  });

  it('an unknown user name answers as a wrong password (and is verified against a dummy hash)', async () => {
    const r = await ctx.call({ method: 'POST', url: '/api/user/login', payload: { username: 'nobody-here', password: 'whatever1', verifyCode: '000000' } });
    expect(r.body).toMatchObject({ code: Code.WRONG_PASSWORD, msg: 'Wrong user name or password, 4 chances remaining', data: { remaining: 4 } });
  });
});
