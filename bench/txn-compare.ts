import fs from 'node:fs';
import path from 'node:path';

/**
 * Issue 16, target 3: the figures at N rows against those of an earlier run at N/2 (the same
 * benchmark's result file, e.g. 20M against 10M): API p95 of each filter set, goal within 20 %.
 */
export function compareWithHalf(list: Record<string, unknown>[], file: string, rows: number, log: (s: string) => void): void {
  if (!fs.existsSync(file)) return log(`  target 3: no run at ${(rows / 2).toLocaleString('en')} rows to compare with (${path.basename(file)})`);
  const before = (JSON.parse(fs.readFileSync(file, 'utf8')).list ?? []) as Record<string, unknown>[];
  const p95 = (r: Record<string, unknown> | undefined, conc: number) => (r?.[`c${conc}Overhead`] as { apiP95: number } | undefined)?.apiP95;
  log(`target 3: API p95 at ${rows.toLocaleString('en')} rows ÷ at ${(rows / 2).toLocaleString('en')} (goal within 20 %):`);
  for (const row of list) {
    const old = before.find((r) => r.set === row.set);
    for (const conc of [1, 32]) {
      const a = p95(row, conc);
      const b = p95(old, conc);
      if (a === undefined || !b) continue;
      const ratio = Math.round((a / b) * 100) / 100;
      log(`  ${row.set}, c${conc}: ${a} / ${b} ms = ${ratio}×  ${Math.abs(ratio - 1) <= 0.2 ? 'met' : ratio < 1 ? 'faster' : 'MISSED'}`);
    }
  }
}
