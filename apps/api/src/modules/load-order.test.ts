import fs from 'node:fs';
import path from 'node:path';
import { expect, it, vi } from 'vitest';

const dir = path.dirname(new URL(import.meta.url).pathname);
const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f.includes('/'));

it('every module file loads as the first import of a process (no circle of doors reads a binding too early)', async () => {
  const failed: string[] = [];
  for (const f of files) {
    vi.resetModules();
    try {
      await import(path.join(dir, f));
    } catch (e) {
      failed.push(`${f}: ${String(e).slice(0, 200)}`);
    }
  }
  expect(failed).toEqual([]);
}, 600_000);
