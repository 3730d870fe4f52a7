/**
 * Prints one closing line, "N passed, N failed", over every JSON report in test-results/
 * (Vitest's and Playwright's), so CI can read the count whatever runner produced it — and, above it,
 * each failed test with the first lines of its error, so a CI log that keeps only its tail still
 * names what failed (stop 42's said "2 failed" and nothing more).
 */
import fs from 'node:fs';
import path from 'node:path';

const dir = path.resolve('test-results');
let passed = 0;
let failed = 0;
let skipped = 0;
const lines: string[] = [];
const failures: string[] = [];
const MAX_FAILURES = 20;

/** The first few non-blank lines of an error, ANSI colours removed, each cut to 200 characters. */
function firstLines(message: string | undefined, n = 4): string[] {
  return (message ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(0, n)
    .map((l) => `      ${l.slice(0, 200)}`);
}

function noteFailure(title: string, message: string | undefined): void {
  if (failures.length < MAX_FAILURES) failures.push(`  ✗ ${title}`, ...firstLines(message));
  else if (failures.length === MAX_FAILURES) failures.push('  … more failures in test-results/');
}

interface PwSuite {
  title: string;
  file?: string;
  specs?: PwSpec[];
  suites?: PwSuite[];
}
interface PwSpec {
  title: string;
  file?: string;
  tests: { projectName?: string; results: { status: string; error?: { message?: string } }[] }[];
}

function walkPlaywright(report: string, suite: PwSuite, trail: string[]): void {
  const here = suite.title ? [...trail, suite.title] : trail;
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests) {
      const last = t.results[t.results.length - 1];
      if (last && (last.status === 'failed' || last.status === 'timedOut' || last.status === 'interrupted')) {
        noteFailure(`${report}: ${[...here, spec.title].join(' › ')} (${last.status})`, last.error?.message);
      }
    }
  }
  for (const s of suite.suites ?? []) walkPlaywright(report, s, here);
}

for (const f of fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')) : []) {
  const r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  let p = 0,
    x = 0,
    s = 0;
  if (typeof r.numPassedTests === 'number') {
    // Vitest (jest-compatible JSON)
    p = r.numPassedTests;
    x = r.numFailedTests;
    s = r.numPendingTests + (r.numTodoTests ?? 0);
    for (const file of r.testResults ?? []) {
      const name = path.relative(process.cwd(), file.name ?? '');
      const bad = (file.assertionResults ?? []).filter((a: { status: string }) => a.status === 'failed');
      for (const a of bad) noteFailure(`${name}: ${a.fullName}`, (a.failureMessages ?? []).join('\n'));
      // A file that failed to load or whose hooks threw has no failed test but a message.
      if (bad.length === 0 && file.status === 'failed') noteFailure(`${name} (the file itself)`, file.message);
    }
  } else if (r.stats) {
    // Playwright
    p = r.stats.expected + (r.stats.flaky ?? 0);
    x = r.stats.unexpected;
    s = r.stats.skipped;
    for (const suite of r.suites ?? []) walkPlaywright(f, suite, []);
  }
  lines.push(`  ${f}: ${p} passed, ${x} failed, ${s} skipped`);
  passed += p;
  failed += x;
  skipped += s;
}
if (failures.length > 0) console.log(['', 'Failed:', ...failures].join('\n'));
console.log(['', 'Test reports:', ...lines].join('\n'));
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
