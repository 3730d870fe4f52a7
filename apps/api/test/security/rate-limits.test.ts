import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestCtx } from '../helpers';

/**
 * Every route's own rate limit, as registered, against the pinned list beside this file
 * (`rate-limits.txt`: "METHOD path {max, timeWindow}", sorted). Moving the routes to their endpoint
 * descriptors (issue 45 §3, `routeOf(E, { rateLimit })`) showed how easily a limit falls off in a
 * refactor — sign-in's four routes lost theirs in a first draft, and no test noticed. A route that
 * gains, loses or changes its limit changes the list in the same commit, where a review sees it.
 * (The limiter is not global, app.ts: a route without a limit of its own has none.)
 */
const PINNED = path.join(import.meta.dirname, 'rate-limits.txt');

describe('rate limits per route', () => {
  let ctx: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp({ kind: 'pglite' });
  }, 300_000);
  afterAll(() => ctx?.close());

  it('every route keeps the limit pinned for it, and no other route has one', () => {
    const registered = ctx.routes
      .map((r) => ({ route: `${String(r.method)} ${r.url}`, limit: (r.config as { rateLimit?: unknown } | undefined)?.rateLimit }))
      .filter((r) => r.limit !== undefined)
      .map((r) => `${r.route} ${JSON.stringify(r.limit)}`)
      .sort();
    const pinned = fs.readFileSync(PINNED, 'utf8').split('\n').filter(Boolean);
    expect(registered).toEqual(pinned);
    // The sign-in routes, named: the list is not allowed to lose them quietly.
    for (const route of ['POST /api/user/login', 'POST /api/user/getEmailCode', 'POST /api/ops/auth/login']) expect(pinned.some((l) => l.startsWith(`${route} `))).toBe(true);
  });
});
