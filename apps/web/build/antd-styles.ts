import { createRequire } from 'node:module';
import type { Plugin } from 'vite';
import { portalTheme } from '../src/app/theme.ts';

const ID = 'virtual:antd-styles';
const RESOLVED = `\0${ID}`;
/** Where the development server answers with the stylesheet (the build emits a hashed asset instead). */
const DEV_PATH = '/@portal/antd-styles.css';

/**
 * antd components no screen of ours draws, nor any antd component we draw (antd-styles.test.ts
 * checks both: our imports, and antd's own modules importing them): their styles stay out of the
 * stylesheet (a fifth of it). A screen that starts using one must take it off this list.
 */
export const UNUSED_COMPONENTS = [
  'Affix',
  'Anchor',
  'AutoComplete',
  'BackTop',
  'BorderBeam',
  'Calendar',
  'Carousel',
  'Cascader',
  'ColorPicker',
  'Image',
  'Listy',
  'Masonry',
  'Mentions',
  'Rate',
  'Slider',
  'Splitter',
  'Tour',
  'Transfer',
  'TreeSelect',
  'Watermark',
];

/**
 * antd's component styles for the portal's theme, rendered once on the server side of the build
 * with antd's own extractor (decision 031). The browser would otherwise generate the same CSS with
 * antd's CSS-in-JS on every first render of a component (issue 16, target 6: the list's longest
 * tasks were antd serialising and inserting styles).
 */
export function extractAntdStyles(): string {
  const require = createRequire(import.meta.url);
  const React = require('react') as typeof import('react');
  const { ConfigProvider } = require('antd') as typeof import('antd');
  const { extractStyle } = require('@ant-design/static-style-extract') as typeof import('@ant-design/static-style-extract');
  return extractStyle({ customTheme: (node) => React.createElement(ConfigProvider, { theme: portalTheme }, node), excludes: UNUSED_COMPONENTS });
}

/**
 * `import href from 'virtual:antd-styles'`: the URL of that stylesheet — a hashed file under
 * assets/ in the build (precompressed with the rest), a path of the development server in dev.
 * The app inserts it ahead of its own CSS (lib/stylesheet.ts), where antd's run-time styles went,
 * so the cascade is the one the screens were drawn with.
 */
export function antdStyles(): Plugin {
  let css: string | undefined;
  let serve = false;
  const styles = () => (css ??= extractAntdStyles());
  return {
    name: 'portal-antd-styles',
    configResolved(c) {
      serve = c.command === 'serve';
    },
    configureServer(server) {
      server.middlewares.use(DEV_PATH, (_req, res) => {
        res.setHeader('Content-Type', 'text/css; charset=utf-8');
        res.end(styles());
      });
    },
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      if (serve) return `export default ${JSON.stringify(DEV_PATH)};`;
      const ref = this.emitFile({ type: 'asset', name: 'antd.css', source: styles() });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
    },
  };
}
