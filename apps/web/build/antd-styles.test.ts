import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Button, ConfigProvider, Table, Tag } from 'antd';
import { describe, expect, it } from 'vitest';
import { antdStyles, extractAntdStyles } from './antd-styles';
import { portalTheme } from '../src/app/theme';

describe("antd-styles: antd's component styles written at build time (decision 031)", () => {
  const css = extractAntdStyles();

  it('holds the styles of the components the screens and their popups draw', () => {
    for (const sel of ['.ant-btn', '.ant-table', '.ant-pagination', '.ant-select-dropdown', '.ant-picker-dropdown', '.ant-modal', '.ant-message', '.ant-drawer', '.ant-menu-dark', '.ant-form-item', '.ant-tag', '.ant-layout-sider', '.ant-dropdown', '.ant-tooltip']) {
      expect(css, sel).toContain(sel);
    }
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
