import type { Language } from './api';

/**
 * The server renderer's interface (decision 050): the API's page plugin (apps/api plugins/ssr.ts)
 * calls the web app's renderer (apps/web entry-server.tsx, built to dist-ssr/entry-server.js).
 */
export interface RenderInput {
  /** Path and query, as requested. */
  url: string;
  cookies: string;
  language: Language;
  /** The browser's IANA zone (its `mp_tz` cookie). */
  zone: string;
  /** The viewport width rendered for, in px. */
  width: number;
  /** The API, in-process, as fetch. */
  transport: typeof fetch;
}

/** A rendered page (its markup, title, language and the state the browser takes it over with), or why not. */
export type RenderResult<State = unknown> =
  | {
      ok: true;
      html: string;
      title: string;
      lang: Language;
      /** `<style>` elements for the page's head: antd's theme variables as the render registered them. */
      styles: string;
      state: State;
    }
  | { ok: false; reason: string };

/** What dist-ssr/entry-server.js exports. */
export interface Renderer {
  renderPage(input: RenderInput): Promise<RenderResult>;
  /** The paths rendered on the server; any other gets the plain page. */
  RENDERED_PATHS: string[];
}
