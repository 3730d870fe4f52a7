import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect } from './support';

/**
 * The back office in e2e (issue 26). The first operator comes from `npm run ops -- add-operator`
 * when the run's database is PostgreSQL (the CLI and the server share it); on the embedded
 * database, which only the server process may open, from the development route that calls the
 * same service (POST /api/ops/dev/addOperator, loopback only, never in production).
 */
export const OPS_PASSWORD = 'Ops-e2e-Passw0rd';

export async function addOperatorLink(page: Page, username: string, role = 'administrator'): Promise<string> {
  const email = `${username}@provider.example`;
  const dbUrl = process.env.E2E_SERVER_DATABASE_URL;
  if (dbUrl) {
    const root = path.resolve(import.meta.dirname, '../../..');
    const out = spawnSync('npm', ['run', '--silent', 'ops', '--', 'add-operator', '--username', username, '--email', email, '--role', role], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: dbUrl, PUBLIC_URL: process.env.E2E_BASE_URL, NODE_ENV: 'development', DATA_DIR: process.env.E2E_SERVER_DATA_DIR },
      encoding: 'utf8',
    });
    expect(out.status, out.stderr).toBe(0);
    return /(https?:\/\/\S+\/ops\/activate\?token=\S+)/.exec(out.stdout)![1];
  }
  const res = await (await page.request.post('/api/ops/dev/addOperator', { data: { username, email, role } })).json();
  expect(res.code, res.msg).toBe(0);
  return res.data.link as string;
}

/** Per secret, the last 30-second step a code was made for. */
const lastStep = new Map<string, number>();

/**
 * An authenticator code the server takes: it accepts the step before, the current and the next one,
 * each at most once and only newer than the last accepted (apps/api/src/modules/account/totp.ts).
 * So a second code right after the first is the next step's, as an authenticator shows it a moment
 * later — without waiting out the step (0–30 s, several times per suite). A third within the same
 * step waits until the step after: the step of every code made here is remembered.
 */
export async function totpCode(secret: string): Promise<string> {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  const stepNow = () => Math.floor(Date.now() / 30_000);
  const step = Math.max(stepNow(), (lastStep.get(secret) ?? -Infinity) + 1);
  while (step > stepNow() + 1) await new Promise((r) => setTimeout(r, 1000));
  lastStep.set(secret, step);
  return totp.generate({ timestamp: step * 30_000 });
}

/** An operator activated through its link's API, signed in, its token pair set as the back office's cookies. */
export async function opsSignInQuick(page: Page, username: string, base: string, role = 'administrator'): Promise<void> {
  const link = await addOperatorLink(page, username, role);
  const token = new URL(link).searchParams.get('token')!;
  const info = await (await page.request.get(`/api/ops/auth/activation?token=${token}`)).json();
  const first = await totpCode(info.data.totpSecret);
  const act = await (await page.request.post('/api/ops/auth/activate', { form: { token, newPassword: OPS_PASSWORD, confirmPassword: OPS_PASSWORD, totpCode: first } })).json();
  expect(act.code, act.msg).toBe(0);
  const login = await (await page.request.post('/api/ops/auth/login', { form: { username, password: OPS_PASSWORD, verifyCode: await totpCode(info.data.totpSecret) } })).json();
  expect(login.code, login.msg).toBe(0);
  const host = new URL(base).hostname;
  await page.context().addCookies([
    { name: 'mp_ops_token', value: login.data.token, domain: host, path: '/' },
    { name: 'mp_ops_refresh', value: login.data.refreshToken, domain: host, path: '/' },
  ]);
}
