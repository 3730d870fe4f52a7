/** The URL of antd's component styles for the portal's theme, written by the build (build/antd-styles.ts). */
declare module 'virtual:antd-styles' {
  const href: string;
  export default href;
}
