/**
 * A Vitest reporter that lists every skipped test with the reason it gave (`skip(note)`), after the
 * run, so a test that could not run here (e.g. it needs PostgreSQL) is seen, not silently counted.
 */
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class SkippedReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    let unexplained = 0;
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const r = t.result();
        if (r.state !== 'skipped') continue;
        // Without a reason: filtered out by -t / .only, or a bare it.skip — counted, not listed.
        if (!r.note) {
          unexplained++;
          continue;
        }
        lines.push(`  ↓ ${path.relative(process.cwd(), m.moduleId)} > ${t.fullName}  [${r.note}]`);
      }
    }
    if (lines.length) console.log(`\nSkipped tests with a reason (${lines.length}):\n${lines.join('\n')}`);
    if (unexplained) console.log(`${unexplained} more skipped without a reason (filtered out, or it.skip)`);
  }
}
