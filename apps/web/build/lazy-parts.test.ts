import { describe, expect, it } from 'vitest';
import { DEFERRED_IMPORTS, LAZY_PARTS, deferImports, lazyPartCode, lazyParts } from './lazy-parts';

type Resolve = (this: { resolve: (s: string, i: string) => Promise<{ id: string } | null> }, source: string, importer?: string) => Promise<string | null>;

describe('lazy-parts: antd parts our screens never draw load when drawn', () => {
  const plugin = lazyParts();
  const resolveId = plugin.resolveId as unknown as Resolve;
  const ctx = { resolve: async (s: string, i: string) => ({ id: `${i.replace(/[^/]+$/, '')}${s.replace(/^\.\//, '')}/index.js` }) };

  it('swaps only the listed import of the listed antd module', async () => {
    const card = '/x/node_modules/antd/es/card/Card.js';
    expect(await resolveId.call(ctx, '../tabs', card)).toMatch(/\?lazy-part$/);
    // The same specifier elsewhere, or another import of the card, is left alone.
    expect(await resolveId.call(ctx, '../tabs', '/x/node_modules/antd/es/calendar/Header.js')).toBeNull();
    expect(await resolveId.call(ctx, '../button', card)).toBeNull();
    expect(await resolveId.call(ctx, 'antd', '/x/apps/web/src/main.tsx')).toBeNull();
  });

  it('the stand-in loads the real part on first render and keeps the named helpers', () => {
    const filter = LAZY_PARTS.find((p) => p.source === './FilterDropdown')!;
    const code = lazyPartCode(filter, '/x/node_modules/antd/es/table/hooks/useFilter/FilterDropdown.js');
    expect(code).toContain('import("/x/node_modules/antd/es/table/hooks/useFilter/FilterDropdown.js")');
    expect(code).toContain('lazy(load)');
    expect(code).not.toContain('addEventListener');
    expect(code).toContain('fallback: props.children');
    const flattenKeys = new Function(`${filter.named!.replace('export ', '')}; return flattenKeys;`)() as (f: unknown) => unknown;
    expect(flattenKeys([{ value: 'a', children: [{ value: 'b' }] }, { value: 'c' }])).toEqual(['a', 'b', 'c']);
  });

  it("a part drawn when a person acts also loads on the page's first interaction, once (issue 52)", async () => {
    const options = LAZY_PARTS.find((p) => p.source === './OptionList')!;
    const code = lazyPartCode(options, '/x/node_modules/@rc-component/select/es/OptionList.js');
    // Run the stand-in's own code with a window that records its listeners and an import() that counts.
    const listeners = new Map<string, (e: { type: string; movementX?: number; movementY?: number }) => void>();
    const win = { addEventListener: (e: string, f: () => void) => listeners.set(e, f), removeEventListener: (e: string) => listeners.delete(e) };
    const counter = { imports: 0 };
    const body = code
      .replace(/^import .*$/m, '')
      .replace(/import\("[^"]+"\)/, '(counter.imports++, Promise.resolve({ default: () => null }))')
      .replace(/^export default /m, '');
    new Function('window', 'lazy', 'createElement', 'Suspense', 'counter', body)(
      win,
      (f: unknown) => f,
      () => null,
      null,
      counter,
    );
    expect([...listeners.keys()].sort()).toEqual(['focusin', 'keydown', 'pointerdown', 'pointermove', 'touchstart']);
    expect(counter.imports, 'nothing loaded before an interaction').toBe(0);
    // Nor the focus a new page gives its heading.
    listeners.get('focusin')!({ type: 'focusin', target: { closest: () => null } } as never);
    expect(counter.imports).toBe(0);
    listeners.get('keydown')!({ type: 'keydown' });
    expect(counter.imports).toBe(1);
    expect(listeners.size, 'every listener removed after the first interaction').toBe(0);
  });

  it('every listed import still exists in the installed antd (an upgrade that moves one fails here)', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const nm = path.resolve(import.meta.dirname, '../../../node_modules');
    for (const p of LAZY_PARTS) {
      const src = fs.readFileSync(path.join(nm, p.importer), 'utf8');
      expect(src, `${p.importer} imports ${p.source}`).toMatch(new RegExp(`from ['"]${p.source.replace(/[./]/g, '\\$&')}['"]`));
    }
  });

  it('deferred imports still match the installed modules, and move the import into the function', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const nm = path.resolve(import.meta.dirname, '../../../node_modules');
    for (const d of DEFERRED_IMPORTS) {
      const out = deferImports(fs.readFileSync(path.join(nm, d.module), 'utf8'), d);
      expect(out).not.toMatch(/^import RawAsyncValidator/m);
      expect(out).toContain("const AsyncValidator = (await import('@rc-component/async-validator')).default;");
    }
    expect(() => deferImports('export {}', DEFERRED_IMPORTS[0])).toThrow(/has changed/);
  });
});
