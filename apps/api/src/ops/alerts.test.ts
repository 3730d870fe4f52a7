import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** ops/alerts.yml loads in Prometheus and its alerts fire as ops/alerts.test.yml expects (Debian's `prometheus` package has promtool). */
const OPS = path.resolve(import.meta.dirname, '../../../../ops');
const promtool = (() => {
  try {
    execFileSync('promtool', ['--version'], { stdio: 'ignore' });
    return 'promtool';
  } catch {
    return null;
  }
})();

describe('alert rules', () => {
  it('promtool: the rules are valid and the unit tests of ops/alerts.test.yml pass', ({ skip }) => {
    if (!promtool) skip('promtool not installed (apt-get install prometheus)');
    expect(execFileSync('promtool', ['check', 'rules', 'alerts.yml'], { cwd: OPS, encoding: 'utf8' })).toMatch(/SUCCESS: \d+ rules found/);
    expect(execFileSync('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: OPS, encoding: 'utf8' })).toContain('SUCCESS');
  });
});
