import fs from 'node:fs';
import path from 'node:path';
import { rolldown } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { dropStyleFunctions, NO_STYLE, zeroRuntimeStyles } from './zero-runtime-styles';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe("zero-runtime-styles (issue 52, decision 081): antd's style functions out of the browser's scripts", () => {
  it('replaces the style function of each style-hook factory call, and nothing else', () => {
    const src = [
      "import { genStyleHooks, genComponentStyleHook, genSubStyleComponent } from '../../theme/internal';",
      'const genBase = (token) => ({ [token.componentCls]: { color: token.colorText } });',
      "export const prepareComponentToken = (token) => ({ paddingInline: token.padding, call: genStyleHooks('x') });",
      "export default genStyleHooks('Button', (token) => [genBase(token), genStyleHooks('Inner', genBase)], prepareComponentToken, { unitless: { fontWeight: true } });",
      "export const Wave = genComponentStyleHook('Wave', genBase);",
      "export const Sub = genSubStyleComponent(['Input', 'Sub'], (token) => genBase(token), prepareComponentToken);",
      "export const other = somethingElse('A', genBase);",
    ].join('\n');
    const out = dropStyleFunctions(src)!;
    expect(out).toContain(`export default genStyleHooks('Button', ${NO_STYLE}, prepareComponentToken, { unitless: { fontWeight: true } });`);
    expect(out).toContain(`export const Wave = genComponentStyleHook('Wave', ${NO_STYLE});`);
    expect(out).toContain(`export const Sub = genSubStyleComponent(['Input', 'Sub'], ${NO_STYLE}, prepareComponentToken);`);
    // A call with no style function, and a call of something else, are left as they are.
    expect(out).toContain("call: genStyleHooks('x') });");
    expect(out).toContain("export const other = somethingElse('A', genBase);");
    expect(out).toContain('const genBase = (token) =>');
  });

  it('leaves a module with no style hook as it is', () => {
    expect(dropStyleFunctions("import a from 'a';\nexport default a('b', () => 1);\n")).toBeNull();
  });

  it("a bundle of antd's button style hook keeps the button's tokens and drops its style functions", async () => {
    const bundle = async (plugins: unknown[]) => {
      const b = await rolldown({
        input: 'entry',
        cwd: ROOT,
        plugins: [
          {
            name: 'entry',
            resolveId: (id: string) => (id === 'entry' ? id : null),
            load: (id: string) => (id === 'entry' ? "import useStyle from 'antd/es/button/style';\nconsole.log(useStyle);\n" : null),
          },
          ...(plugins as never[]),
        ],
        external: (id) => /^react(-dom)?($|\/)/.test(id),
      });
      const { output } = await b.generate({ format: 'esm' });
      await b.close();
      return output.map((o) => ('code' in o ? o.code : '')).join('\n');
    };
    // The plugin applies to builds only (`apply: 'build'`): here its transform is called as a build would.
    const plugin = zeroRuntimeStyles();
    const before = await bundle([]);
    const after = await bundle([plugin]);
    expect(before).toContain('genSharedButtonStyle');
    expect(after).not.toContain('genSharedButtonStyle');
    expect(after).toContain('prepareComponentToken');
    // The button's own style functions: ~16 KB of the 174 KB (the rest is the theme and cssinjs, kept).
    expect(before.length - after.length).toBeGreaterThan(10_000);
  });

  it('the portal renders antd in zero-runtime mode: the condition under which the style functions never run', () => {
    const providers = fs.readFileSync(path.join(import.meta.dirname, '../src/app/providers.tsx'), 'utf8');
    expect(providers).toMatch(/export const theme: ThemeConfig = \{ \.\.\.portalTheme, zeroRuntime: true,/);
    // And in antd itself: the hook returns before it reaches the style function.
    const utils = fs.readFileSync(path.join(ROOT, 'node_modules/@ant-design/cssinjs-utils/es/util/genStyleUtils.js'), 'utf8');
    expect(utils).toMatch(/if \(memoizedZeroRuntime\) \{\s*return hashId;\s*\}/);
  });
});
