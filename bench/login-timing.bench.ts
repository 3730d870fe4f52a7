/**
 * `npm run bench -- login-timing`: how long a sign-in answer takes for an unknown user name and for
 * a known name with a wrong password (issue 11: they must cost the same, so the time does not tell
 * which names exist). In-process API on PGlite; ROUNDS (default 30) of each, taking turns.
 * Prints the medians and p90s and writes bench-results/login-timing.json.
 *
 * Every answer is checked (issue 52): it must be the wrong-credentials answer (HTTP 200, code
 * WRONG_PASSWORD) — a sign-in refused by the rate limit (HTTP 429, 30 a minute per caller) costs
 * nothing and made the old figure an artefact. Each attempt therefore comes from a caller of its own
 * (a loopback address of its own, as distinct clients would), so the limit never answers; a call
 * answered otherwise is counted as failed and the bench exits non-zero.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Code } from '@portal/contract';
import { createTestApp, DEMO } from '../apps/api/test/helpers';
import { check, finishCalls } from './check';

export default async function run() {
  const rounds = Number(process.env.ROUNDS ?? 30);
  const ctx = await createTestApp({ kind: 'pglite' });
  const times = { unknown: [] as number[], knownWrong: [] as number[] };
  let caller = 0;
  const attempt = async (username: string) => {
    // A caller of its own each time: 127.0.<n / 250>.<n % 250 + 2>.
    const n = caller++;
    const remoteAddress = `127.0.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
    const t0 = performance.now();
    const res = await ctx.call({ method: 'POST', url: '/api/user/login', payload: { username, password: 'Wrong9999', verifyCode: '000000' }, remoteAddress });
    const t = performance.now() - t0;
    check(res.status === 200 && res.body?.code === Code.WRONG_PASSWORD, () => `sign-in as ${username}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
    return t;
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
  console.log(
    `sign-in answer, ms (${rounds} rounds): unknown name p50 ${out.unknown.p50} p90 ${out.unknown.p90} · known name, wrong password p50 ${out.knownWrong.p50} p90 ${out.knownWrong.p90} · ratio p50 ${(out.unknown.p50 / out.knownWrong.p50).toFixed(2)}`,
  );
  const dir = path.resolve(import.meta.dirname, '../bench-results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'login-timing.json'), JSON.stringify({ rounds, ...out }, null, 2));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  finishCalls('login-timing');
}
