import fs from 'node:fs';
import path from 'node:path';
import { expect, takePageErrors, test } from './support';

/** Issue 13, fix 10: no spec escapes the console guard of support.ts, and the guard does catch errors. */
test('every spec takes `test` from ./support (so the console guard runs on it)', () => {
  const dir = import.meta.dirname;
  const specs = fs.readdirSync(dir).filter((f) => f.endsWith('.spec.ts'));
  expect(specs.length).toBeGreaterThan(5);
  const escaping = specs.filter((f) => {
    const src = fs.readFileSync(path.join(dir, f), 'utf8');
    return /import\s*\{[^}]*\btest\b[^}]*\}\s*from\s*'@playwright\/test'/.test(src) || !/import\s*\{[^}]*\btest\b[^}]*\}\s*from\s*'\.\/support'/.test(src);
  });
  expect(escaping, 'import { expect, test } from "./support" in these specs').toEqual([]);
});

test('the guard collects uncaught errors and console.error, not failed loads', async ({ page, browser }) => {
  await page.goto('/login');
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('guard-probe-throw');
    });
    void Promise.reject({ probe: 'guard-probe-rejection' });
    console.error('guard-probe-console');
    // What main.tsx logs when React renders a server-rendered page afresh (issue 53).
    console.warn('ssr: rendered afresh', new Error('guard-probe-hydration'));
    console.warn('guard-probe-plain-warning');
  });
  await page.request.get('/api/no-such-endpoint');
  await page.evaluate(() => fetch('/api/no-such-endpoint').catch(() => undefined));
  // A page of a context opened outside the fixtures (as specs do in beforeAll) is watched too.
  const other = await (await browser.newContext()).newPage();
  await other.goto('/login');
  await other.evaluate(() => setTimeout(() => Promise.reject(new Error('guard-probe-other'))));
  await expect.poll(() => takePageErrors.peek().length).toBeGreaterThanOrEqual(5);
  const errors = takePageErrors();
  expect(errors.join('\n')).toContain('guard-probe-throw');
  expect(errors.join('\n')).toContain('guard-probe-console');
  expect(errors.join('\n')).toContain('guard-probe-other');
  expect(errors.join('\n')).not.toContain('Failed to load resource');
  // A hydration warning fails a test by default (issue 53; E2E_FAIL_ON_HYDRATION=0 only to look for others).
  expect(errors.join('\n')).toContain('hydration');
  expect(errors.join('\n')).toContain('ssr: rendered afresh');
  expect(errors.join('\n')).not.toContain('guard-probe-plain-warning');
  await other.context().close();
});
