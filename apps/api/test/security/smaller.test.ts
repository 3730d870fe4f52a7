import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, LIMITS } from '@portal/contract';
import { settleDate, settleRange } from '../../src/modules/payments/settlement/settle.run';
import { reset, settleDb, snapshot, txn, type TestDb } from '../../src/modules/payments/settlement/settle.fixture';
import { createTestApp, DB_KINDS, form, type TestCtx } from '../helpers';

/** Issue 10, finding 8: the old access token ends at the refresh; re-settling a settled range is a no-op. */
describe.each(DB_KINDS)('access token ends at the refresh (%s)', (kind) => {
  let ctx: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
  });
  afterAll(() => ctx?.close());

  const info = (token: string) => ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': token } });
  const refresh = (refreshToken: string) => ctx.call({ method: 'POST', url: '/api/user/refreshToken', ...form({ refreshToken }) });

  it('works for the two-tab grace window after a refresh, then no more', async () => {
    const pair = await ctx.login();
    ctx.clock.advance(60_000);
    const next = await refresh(pair.refreshToken);
    expect(next.body.code).toBe(0);
    // A second tab may still be using the old token for a moment.
    expect((await info(pair.token)).body.code).toBe(0);
    ctx.clock.advance((LIMITS.refreshGraceSeconds + 1) * 1000);
    const old = await info(pair.token);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe(Code.TOKEN_EXPIRED);
    // The new pair is untouched.
    expect((await info(next.body.data.token)).body.code).toBe(0);
  });
});

describe.each(DB_KINDS)('npm run settle over a settled range (%s)', (kind) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await settleDb(kind);
    await reset(db);
  });
  afterAll(() => db?.drop());

  it('is a no-op: every date reported as skipped, nothing changed', async () => {
    await txn(db, '2026-03-05');
    await settleRange(db, '2026-03-05', '2026-03-08');
    const before = await snapshot(db);
    // Starts before the first run: those dates were covered by it.
    const again = await settleRange(db, '2026-03-01', '2026-03-07');
    expect(again.every((r) => r.skipped)).toBe(true);
    expect(await snapshot(db)).toBe(before);
    // Overlapping the end: the settled part is skipped, the rest runs.
    const more = await settleRange(db, '2026-03-07', '2026-03-09');
    expect(more.map((r) => [r.date, r.skipped])).toEqual([
      ['2026-03-07', true],
      ['2026-03-08', true],
      ['2026-03-09', false],
    ]);
    // A single date behind the last run is still refused by the run itself (runs go forward).
    await expect(settleDate(db, '2026-03-01')).rejects.toMatchObject({ key: 'paySettleBackwards' });
  });
});
