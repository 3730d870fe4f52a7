import path from 'node:path';
import { rolldown } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { markContractPure, pureContract } from './pure-contract';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('pure-contract: the web bundle keeps only the contract it uses', () => {
  it('wraps module-level initialisers that call something, and nothing else', () => {
    const src = [
      "import { z } from 'zod';",
      'export const N = 5;',
      "export const NAMES = ['a', 'b'];",
      'export const f = () => g();',
      'export const s = z.object({ q: z.string() }).strict();',
      'export const shape: Record<string, unknown> = { from: s.optional(), n: 1 };',
      'const KEYS = Object.keys(shape);',
      'export function h() { return z.string(); }',
    ].join('\n');
    const out = markContractPure(src);
    expect(out).toContain('export const N = 5;');
    expect(out).toContain("export const NAMES = ['a', 'b'];");
    expect(out).toContain('export const f = () => g();');
    expect(out).toContain('export const s = /* @__PURE__ */ (() => (z.object({ q: z.string() }).strict()))();');
    expect(out).toContain('export const shape: Record<string, unknown> = /* @__PURE__ */ (() => ({ from: s.optional(), n: 1 }))();');
    expect(out).toContain('const KEYS = /* @__PURE__ */ (() => (Object.keys(shape)))();');
    expect(out).toContain('export function h() { return z.string(); }');
  });

  it('the wrapped values are the same values', () => {
    const src = 'const base = { a: 1 };\nconst KEYS = Object.keys(base).map((k) => k.toUpperCase());\nconst obj = { list: [1, 2].map((n) => n * 2) };\n';
    const run = (code: string) => new Function(`${code}return { KEYS, obj };`)() as unknown;
    expect(markContractPure(src)).not.toBe(src);
    expect(run(markContractPure(src))).toEqual({ KEYS: ['A'], obj: { list: [2, 4] } });
    expect(run(markContractPure(src))).toEqual(run(src));
  });

  it('a bundle importing a constant of the contract carries no zod; one using a schema does', async () => {
    const bundle = async (entry: string) => {
      const b = await rolldown({
        input: 'entry',
        cwd: ROOT,
        plugins: [{ name: 'entry', resolveId: (id) => (id === 'entry' ? id : null), load: (id) => (id === 'entry' ? entry : null) }, pureContract() as never],
      });
      const { output } = await b.generate({ format: 'esm' });
      await b.close();
      return output.map((o) => ('code' in o ? o.code : '')).join('\n');
    };
    const contract = path.join(ROOT, 'packages/contract/src/index.ts');
    const constantOnly = await bundle(`import { LIMITS, MAX_RANGE_DAYS, brandName } from ${JSON.stringify(contract)}; console.log(LIMITS.qrSize, MAX_RANGE_DAYS, brandName('VI'));`);
    expect(constantOnly).not.toContain('_zod');
    expect(constantOnly.length).toBeLessThan(20_000);
    const withSchema = await bundle(`import { searchQuerySchema } from ${JSON.stringify(contract)}; console.log(searchQuerySchema.safeParse({ q: 'x' }).success);`);
    expect(withSchema).toContain('_zod');
  });
});
