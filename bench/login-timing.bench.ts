/**
 * `npm run bench -- login-timing`: how long a sign-in answer takes for an unknown user name and for
 * a known name with a wrong password (issue 11: they must cost the same, so the time does not tell
 * which names exist). In-process API on PGlite; ROUNDS (default 30) of each, taking turns.
 * Prints the medians and p90s and writes bench-results/login-timing.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, DEMO } from '../apps/api/test/helpers';

export default async function run() {
  const rounds = Number(process.env.ROUNDS ?? 30);
  const ctx = await createTestApp({ kind: 'pglite' });
  const times = { unknown: [] as number[], knownWrong: [] as number[] };
  const attempt = async (username: string) => {
    const t0 = performance.now();
    await ctx.call({ method: 'POST', url: '/api/user/login', payload: { username, password: 'Wrong9999', verifyCode: '000000' } });
    return performance.now() - t0;
  };
  try {
    await attempt('warm-up-name');
    for (let i = 0; i < rounds; i++) {
      times.unknown.push(await attempt(`nobody-${i}`));
      times.knownWrong.push(await attempt(DEMO.users.demo));
      // keep the known user below the lock: clear its counter after each wrong password
      await ctx.db.query('UPDATE app_user SET failed_logins = 0, locked_until = NULL WHERE username = $1', [DEMO.users.demo]);
    }
  } finally {
    await ctx.close();
  }
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  const out = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, { p50: +q(xs, 0.5).toFixed(1), p90: +q(xs, 0.9).toFixed(1) }]));
  console.log(`sign-in answer, ms (${rounds} rounds): unknown name p50 ${out.unknown.p50} p90 ${out.unknown.p90} · known name, wrong password p50 ${out.knownWrong.p50} p90 ${out.knownWrong.p90} · ratio p50 ${(out.unknown.p50 / out.knownWrong.p50).toFixed(2)}`);
  const dir = path.resolve(import.meta.dirname, '../bench-results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'login-timing.json'), JSON.stringify({ rounds, ...out }, null, 2));
}
