import fs from 'node:fs';
import path from 'node:path';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { HELPER, hideDynamicImports } from './ssr-dynamic-import';

const imports = (code: string) => {
  let n = 0;
  const walk = (x: unknown): void => {
    if (!x || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(walk);
    if ((x as { type?: string }).type === 'ImportExpression') n++;
    Object.values(x).forEach(walk);
  };
  walk(parseAst(code));
  return n;
};

describe('ssr-dynamic-import (issue 52: no 100 MB inline source map for the renderer under tsx)', () => {
  it("replaces each import(…) with the helper's dynamicImport, and nothing else", () => {
    const code = `const s = "import(x) in a string";\nexport async function load(m) { return await import(/* @vite-ignore */ m); }\nexport const two = () => import('./b.js');\n`;
    const out = hideDynamicImports(code)!;
    expect(imports(code)).toBe(2);
    expect(imports(out)).toBe(0);
    expect(out.startsWith(`import { dynamicImport as __dynamicImport } from './${HELPER}';\n`)).toBe(true);
    expect(out).toContain('"import(x) in a string"');
    expect(out).toContain('await __dynamicImport(/* @vite-ignore */ m)');
    expect(out).toContain("__dynamicImport('./b.js')");
  });

  it('leaves a chunk without dynamic imports as it is', () => {
    expect(hideDynamicImports(`import a from 'a';\nexport default a;\n`)).toBeNull();
  });

  const built = path.resolve(import.meta.dirname, '../dist-ssr/entry-server.js');
  it.skipIf(!fs.existsSync(built))('the built renderer holds no import(…) expression, and its helper sits beside it', () => {
    expect(imports(fs.readFileSync(built, 'utf8'))).toBe(0);
    expect(fs.readFileSync(path.join(path.dirname(built), HELPER), 'utf8')).toContain('import(specifier)');
  });
});
