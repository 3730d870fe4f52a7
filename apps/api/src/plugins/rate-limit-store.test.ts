import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { openPostgres, type Db } from '../db/db';
import { createTestApp, DB_KINDS, pgUrlOf, type TestCtx } from '../../test/helpers';
import { pgRateLimitStore } from './rate-limit-store';

/** POST /api/user/refreshToken with a bad token: rate-limited at 30 a minute per client, changes nothing. */
const hit = (app: FastifyInstance) => app.inject({ method: 'POST', url: '/api/user/refreshToken', payload: { refreshToken: 'x'.repeat(40) } }).then((r) => r.statusCode);

describe.each(DB_KINDS)('rate limits (%s)', (kind) => {
  let ctx: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
  });
  afterAll(() => ctx?.close());

  it("answers 429 past the limit of a route, in the caller's language", async () => {
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push(await hit(ctx.app));
    expect(codes.slice(0, 30).every((c) => c !== 429)).toBe(true);
    expect(codes[30]).toBe(429);
    const ja = await ctx.call({ method: 'POST', url: '/api/user/refreshToken', headers: { 'accept-language': 'ja' }, payload: { refreshToken: 'x'.repeat(40) } });
    expect(ja.status).toBe(429);
    expect(ja.body.msg).not.toBe('');
  });

  if (kind === 'postgres') {
    describe('shared by every process on one PostgreSQL', () => {
      let secondDb: Db;
      let second: FastifyInstance;
      beforeAll(async () => {
        // A second API over its own connection pool: what another process (WORKERS=N) has.
        secondDb = await openPostgres(pgUrlOf(ctx.db), { max: 5 });
        second = await buildApp({ ...ctx.deps, db: secondDb });
        await second.ready();
        await ctx.db.query('DELETE FROM rate_limit');
      });
      afterAll(async () => {
        await second?.close();
        await secondDb?.close();
      });

      it('counts hits on two APIs against one limit', async () => {
        const codes: number[] = [];
        for (let i = 0; i < 30; i++) codes.push(await hit(i % 2 ? second : ctx.app));
        expect(codes.includes(429)).toBe(false);
        expect(await hit(second)).toBe(429);
        expect(await hit(ctx.app)).toBe(429);
      });

      it('counts concurrent hits from two pools atomically, and restarts the window when it ends', async () => {
        const a = new (pgRateLimitStore(ctx.db))({});
        const b = new (pgRateLimitStore(secondDb))({});
        const incr = (s: typeof a, key: string, win: number) => new Promise<{ current: number; ttl: number }>((resolve, reject) => s.incr(key, (e, r) => (e ? reject(e) : resolve(r!)), win, 1000));
        const got = await Promise.all(Array.from({ length: 40 }, (_, i) => incr(i % 2 ? a : b, 'k1', 60_000)));
        expect(got.map((g) => g.current).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
        expect(got.every((g) => g.ttl > 0 && g.ttl <= 60_000)).toBe(true);
        await incr(a, 'k2', 150);
        expect((await incr(b, 'k2', 150)).current).toBe(2);
        await new Promise((r) => setTimeout(r, 300));
        expect((await incr(b, 'k2', 150)).current).toBe(1);
      });
    });
  }
});
