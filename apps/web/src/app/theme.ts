import { theme as antTheme, type ThemeConfig } from 'antd';

/**
 * The portal's antd theme. Shared by the app (providers.tsx) and the build, which writes antd's
 * component styles for it to a stylesheet once (build/antd-styles.ts, decision 031): the screens
 * then render with `zeroRuntime` and generate no CSS in the browser.
 *
 * `hashed: false` and a fixed `cssVar.key`: the class names the build's stylesheet selects on must
 * not depend on anything that differs between the build and a browser (a token hash changes with
 * `motion`, React's ids with the render).
 */
export const portalTheme = {
  algorithm: antTheme.defaultAlgorithm,
  hashed: false,
  cssVar: { key: 'portal' },
  token: {
    colorPrimary: '#1456d9',
    colorInfo: '#1456d9',
    // Hover: antd derives #3978e6 from the primary (4.19:1 under white text); #0e4bbf is 7:1 (WCAG 1.4.3), as on the sign-in page.
    colorPrimaryHover: '#0e4bbf',
    // Secondary text (antd's #8c8c8c is 3.36:1 on white): #616161 is 6.2:1 on white, 5.6:1 on the page background (WCAG 1.4.3).
    colorTextTertiary: '#616161',
    colorTextDescription: '#616161',
    // Placeholders ('All' in a filter) are read as text too: #737373 is 4.7:1 on white (antd's #bfbfbf is 1.8:1).
    colorTextPlaceholder: '#737373',
    // Danger (Disable, Remove, Close order as link buttons): antd's #ff4d4f is 3.26:1 on white; #cf1322 is 5.9:1.
    colorError: '#cf1322',
    borderRadius: 6,
    fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'PingFang SC', 'Hiragino Sans', 'Microsoft YaHei', 'Malgun Gothic', sans-serif",
  },
  components: {
    Layout: { siderBg: '#0b1f3a', headerBg: '#ffffff', headerHeight: 56, headerPadding: '0 16px', bodyBg: '#f3f5f9', footerBg: '#f3f5f9' },
    Menu: { darkItemBg: '#0b1f3a', darkSubMenuItemBg: '#081830', darkItemSelectedBg: '#1456d9' },
    // Status tags: antd's text colours on their light fills are 2.2–3:1; these darker ones are ≥ 4.5:1 (WCAG 1.4.3).
    Tag: { colorSuccess: '#237804', colorError: '#cf1322', colorWarning: '#ad4e00', colorInfo: '#0e4bbf' },
  },
} satisfies ThemeConfig;
