import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, test, ARTIFACTS } from './support';

/** Issue 16's budget for the JavaScript the sign-in page loads, gzip-compressed (measured, written to e2e-artifacts). */
const BUDGET_KIB = 180;

test('the sign-in page loads little JavaScript: no antd and none of the signed-in shell', async ({ page }) => {
  const files: { name: string; raw: number; gzip: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (r) => {
    if (!r.url().endsWith('.js')) return;
    pending.push(
      r.body().then((b) => {
        files.push({ name: new URL(r.url()).pathname, raw: b.length, gzip: zlib.gzipSync(b, { level: 9 }).length });
      }),
    );
  });
  await page.goto('/login', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await Promise.all(pending);
  const gzip = files.reduce((n, f) => n + f.gzip, 0);
  const raw = files.reduce((n, f) => n + f.raw, 0);
  const report = { files: files.length, rawKiB: +(raw / 1024).toFixed(1), gzipKiB: +(gzip / 1024).toFixed(1), largest: files.sort((a, b) => b.gzip - a.gzip).slice(0, 5) };
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(path.join(ARTIFACTS, 'login-js.json'), JSON.stringify(report, null, 2));
  console.log(`login page JS: ${report.files} files, ${report.rawKiB} KiB raw, ${report.gzipKiB} KiB gzip`);
  expect(
    files.some((f) => /app-shell|notice-list|side-menu/.test(f.name)),
    'the shell is lazy',
  ).toBe(false);
  expect(gzip / 1024).toBeLessThan(BUDGET_KIB);
  // Drawn without antd: none of its components is on the page.
  expect(await page.locator('[class^="ant-"], [class*=" ant-"]').count(), 'no antd component on the sign-in page').toBe(0);
});
