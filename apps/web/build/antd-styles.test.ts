import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Button, ConfigProvider, Table, Tag } from 'antd';
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { antdStyles, extractAntdStyles, UNUSED_COMPONENTS } from './antd-styles';
import { portalTheme } from '../src/app/theme';

describe("antd-styles: antd's component styles written at build time (decision 031)", () => {
  const css = extractAntdStyles();

  it('holds the styles of the components the screens and their popups draw', () => {
    for (const sel of [
      '.ant-btn',
      '.ant-table',
      '.ant-pagination',
      '.ant-select-dropdown',
      '.ant-picker-dropdown',
      '.ant-modal',
      '.ant-message',
      '.ant-drawer',
      '.ant-menu-dark',
      '.ant-form-item',
      '.ant-tag',
      '.ant-layout-sider',
      '.ant-dropdown',
      '.ant-tooltip',
    ]) {
      expect(css, sel).toContain(sel);
    }
  });

  it('leaves out only components nothing draws: no screen imports one, no antd component renders one', () => {
    const dir = (name: string) =>
      name
        .replace(/([a-z])([A-Z])/g, '$1-$2')
        .toLowerCase()
        .replace('q-r-code', 'qr-code');
    const files = (root: string, ext: RegExp): string[] =>
      fs
        .readdirSync(root, { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile() && ext.test(e.name))
        .map((e) => path.join(e.parentPath, e.name));
    // Our screens: every name imported from 'antd'.
    const ours = new Set(
      files(path.join(import.meta.dirname, '../src'), /\.tsx?$/).flatMap((f) =>
        [...fs.readFileSync(f, 'utf8').matchAll(/import \{([^}]+)\} from 'antd'/g)].flatMap((m) =>
          m[1].split(',').map(
            (n) =>
              n
                .trim()
                .replace(/^type\s+/, '')
                .split(/\s+as\s+/)[0],
          ),
        ),
      ),
    );
    expect(ours).toContain('Table');
    for (const c of UNUSED_COMPONENTS) expect(ours, c).not.toContain(c);
    // antd's own modules: one of a component we draw that imports from an excluded one's folder
    // must take only a helper, a context or locale texts from it (nothing that draws, so nothing styled).
    const es = path.join(import.meta.dirname, '../../../node_modules/antd/es');
    const excluded = new Set(UNUSED_COMPONENTS.map(dir));
    const drawn: string[] = [];
    for (const f of files(es, /\.js$/)) {
      const own = path.relative(es, f).split(path.sep)[0];
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/from '\.\.\/([a-z-]+)(\/[^']*)?'/g)) {
        if (excluded.has(m[1]) && !excluded.has(own) && !/^\/(util|context|locale\/.*)$/.test(m[2] ?? '')) drawn.push(`${own} → ${m[1]}${m[2] ?? ''}`);
      }
    }
    expect(drawn).toEqual([]);
    // And they are really left out.
    expect(css).not.toContain('.ant-carousel');
    expect(css).not.toContain('.ant-color-picker');
  });

  it("is the portal's theme: its tokens are the CSS variables of the theme's scope class", () => {
    const scope = css.match(/\.portal\{[^}]*--ant-color-primary:[^;}]+/)?.[0];
    expect(scope).toBeDefined();
    expect(scope).toContain('--ant-color-primary:#1456d9');
    // A component token of the theme (the dark menu's selected item).
    expect(css).toMatch(/--ant-menu-dark-item-selected-bg:#1456d9/);
  });

  it('selects on class names that do not depend on the token hash (which changes with reduced motion)', () => {
    expect(css).not.toMatch(/:where\(\.css-[^)]+\)/);
  });

  it('the classes a screen renders with zeroRuntime are the ones the stylesheet styles', () => {
    const html = renderToString(
      createElement(
        ConfigProvider,
        { theme: { ...portalTheme, zeroRuntime: true, token: { ...portalTheme.token, motion: false } } },
        createElement(Button, { type: 'primary' }, 'Search'),
        createElement(Tag, { color: 'success' }, 'OK'),
        createElement(Table, { columns: [{ title: 'A', dataIndex: 'a' }], dataSource: [{ key: 1, a: 'x' }], pagination: false }),
      ),
    );
    const classes = new Set([...html.matchAll(/class="([^"]+)"/g)].flatMap((m) => m[1].split(/\s+/)));
    expect(classes).toContain('portal');
    // No hashed class: with a hash, the stylesheet's selectors would only match one motion setting.
    expect([...classes].filter((c) => /^css-(?!var)/.test(c))).toEqual([]);
    for (const c of ['ant-btn-primary', 'ant-btn-color-primary', 'ant-tag-success', 'ant-table-cell', 'ant-table-thead']) {
      expect(classes, c).toContain(c);
      expect(css, c).toContain(`.${c}`);
    }
  });

  it('the build emits the stylesheet as an asset and the module exports its URL; the dev server serves it', async () => {
    const plugin = antdStyles();
    const resolveId = plugin.resolveId as (id: string) => string | undefined;
    const load = plugin.load as (this: { emitFile: (f: { type: string; name: string; source: string }) => string }, id: string) => string | undefined;
    const configResolved = plugin.configResolved as (c: { command: string }) => void;
    const id = resolveId('virtual:antd-styles')!;
    expect(resolveId('antd')).toBeUndefined();

    configResolved({ command: 'build' });
    const emitted: { name: string; source: string }[] = [];
    const code = load.call({ emitFile: (f) => (emitted.push(f), 'ref1') }, id);
    expect(code).toBe('export default import.meta.ROLLUP_FILE_URL_ref1;');
    expect(emitted).toHaveLength(1);
    expect(emitted[0].name).toBe('antd.css');
    expect(emitted[0].source).toBe(css);

    configResolved({ command: 'serve' });
    expect(load.call({ emitFile: () => 'x' }, id)).toBe('export default "/@portal/antd-styles.css";');
  });
});
