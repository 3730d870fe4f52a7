/**
 * Prints one closing line, "N passed, N failed", over every JSON report in test-results/
 * (Vitest's and Playwright's), so CI can read the count whatever runner produced it.
 */
import fs from 'node:fs';
import path from 'node:path';

const dir = path.resolve('test-results');
let passed = 0;
let failed = 0;
let skipped = 0;
const lines: string[] = [];
for (const f of fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')) : []) {
  const r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  let p = 0, x = 0, s = 0;
  if (typeof r.numPassedTests === 'number') {
    // Vitest (jest-compatible JSON)
    p = r.numPassedTests; x = r.numFailedTests; s = r.numPendingTests + (r.numTodoTests ?? 0);
  } else if (r.stats) {
    // Playwright
    p = r.stats.expected + (r.stats.flaky ?? 0); x = r.stats.unexpected; s = r.stats.skipped;
  }
  lines.push(`  ${f}: ${p} passed, ${x} failed, ${s} skipped`);
  passed += p; failed += x; skipped += s;
}
console.log(['', 'Test reports:', ...lines].join('\n'));
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
