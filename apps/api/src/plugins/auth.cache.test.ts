import { afterEach, describe, expect, it, vi } from 'vitest';
import { openPostgres } from '../db/db';
import { createTestApp, DB_KINDS, DEMO, NO_POSTGRES, pgUrlOf, type TestCtx } from '../../test/helpers';
import { SessionCache } from './auth';

/** How many session look-ups (the auth hook's query) the database has answered. */
function countLookups(ctx: TestCtx) {
  const db = ctx.db;
  const query = db.query.bind(db);
  const seen = { n: 0 };
  db.query = ((text: string, params?: unknown[]) => {
    if (text.includes('FROM access_token a JOIN user_session')) seen.n++;
    return query(text, params);
  }) as typeof db.query;
  return seen;
}

describe.each(DB_KINDS)('session cache (%s)', (kind) => {
  let ctx: TestCtx;
  afterEach(() => ctx?.close());

  it('answers a busy token from memory, and a write in this process takes effect on the next call', async () => {
    ctx = await createTestApp({ kind, config: { sessionCacheMs: 60_000 } });
    const { token } = await ctx.login(DEMO.users.sub);
    const lookups = countLookups(ctx);
    const info = () => ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': token } });
    for (let i = 0; i < 5; i++) expect((await info()).body.code).toBe(0);
    expect(lookups.n).toBe(1);
    // Disabled through the same database: no waiting for the cache to age.
    await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE username = $1`, [DEMO.users.sub]);
    expect((await info()).body.code).toBe(50014);
    expect(lookups.n).toBe(2);
  });

  it('still checks every time rule against the clock on a cached session', async () => {
    ctx = await createTestApp({ kind, config: { sessionCacheMs: 60_000 } });
    const { token } = await ctx.login();
    const info = () => ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': token } });
    expect((await info()).body.code).toBe(0);
    ctx.clock.advance(16 * 60_000); // past the access token's 15 minutes and the idle limit: idle is checked first
    expect((await info()).body.code).toBe(50014);
  });

  it('logout ends the session at once', async () => {
    ctx = await createTestApp({ kind, config: { sessionCacheMs: 60_000 } });
    const { token } = await ctx.login();
    const info = () => ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': token } });
    expect((await info()).body.code).toBe(0);
    expect((await ctx.call({ method: 'POST', url: '/api/user/logout', headers: { 'x-token': token } })).body.code).toBe(0);
    expect((await info()).body.code).toBe(50014);
  });

  it('a permission taken away in this process is refused on the next call', async () => {
    ctx = await createTestApp({ kind, config: { sessionCacheMs: 60_000 } });
    const { token } = await ctx.login();
    const list = () => ctx.call({ method: 'GET', url: '/api/notice/list?page=0&size=5', headers: { 'x-token': token } });
    expect((await list()).body.code).toBe(0);
    await ctx.db.query(`UPDATE app_user SET permissions = '{}' WHERE username = $1`, [DEMO.users.demo]);
    expect((await list()).status).toBe(403);
  });
});

// Another server process needs another connection to the same database: PostgreSQL only.
describe('session cache across server processes (postgres)', () => {
  let ctx: TestCtx | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await ctx?.close();
  });

  it('a change made by another server process whose notification is lost is seen once the cache time has passed', async ({ skip }) => {
    skip(!!NO_POSTGRES, NO_POSTGRES ?? undefined);
    // The cache ages by performance.now(): faked, so "once the cache time has passed" is exact.
    vi.useFakeTimers({ toFake: ['performance'] });
    ctx = await createTestApp({ kind: 'postgres', config: { sessionCacheMs: 300 } });
    const { token } = await ctx.login(DEMO.users.sub);
    const info = () => ctx!.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': token } });
    expect((await info()).body.code).toBe(0);
    // Another process: its own connection. Its triggers are off for this session
    // (session_replication_role = replica), so no NOTIFY tells this process: the notification is
    // "lost", and only the cache time bounds how long the old row is believed.
    const other = await openPostgres(pgUrlOf(ctx.db), { max: 1 });
    await other.tx(async (q) => {
      await q.query(`SET LOCAL session_replication_role = replica`);
      await q.query(`UPDATE app_user SET status = 'DISABLED' WHERE username = $1`, [DEMO.users.sub]);
    });
    await other.close();
    vi.advanceTimersByTime(299);
    expect((await info()).body.code).toBe(0); // still the cached row: within the cache time
    vi.advanceTimersByTime(2);
    expect((await info()).body.code).toBe(50014);
  });
});

describe('SessionCache', () => {
  const row = { session_id: 1 } as never;

  it('does not keep a look-up that raced with a write', () => {
    const c = new SessionCache(60_000);
    const started = c.mark();
    c.clear(); // a write lands while the look-up is on its way
    c.set('h', row, started);
    expect(c.get('h')).toBeUndefined();
    c.set('h', row, c.mark());
    expect(c.get('h')).toBe(row);
  });

  it('forgets entries after their time and keeps at most `max`', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const c = new SessionCache(50, 2);
      c.set('a', row, c.mark());
      c.set('b', row, c.mark());
      c.set('c', row, c.mark());
      expect(c.get('a')).toBeUndefined();
      expect(c.get('b')).toBe(row);
      expect(c.get('c')).toBe(row);
      vi.advanceTimersByTime(50);
      expect(c.get('c')).toBe(row); // exactly the cache time: still kept
      vi.advanceTimersByTime(1);
      expect(c.get('c')).toBeUndefined();
      expect(c.get('b')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps nothing when the cache time is 0 (SESSION_CACHE_MS=0)', () => {
    const c = new SessionCache(0);
    c.set('a', row, c.mark());
    expect(c.get('a')).toBeUndefined();
  });
});
