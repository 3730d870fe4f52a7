import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LANGUAGES, type Language, type Renderer, type RenderResult } from '@portal/contract';

/**
 * Lists rendered on the server (decision 050, issue 30): a signed-in visitor's document request for
 * a list screen gets the screen's HTML — shell, filters, totals and first page — with the state the
 * browser needs to take it over without asking again. The renderer is the web app's own build
 * (apps/web/dist-ssr/entry-server.js); every API call it makes goes through `app.inject` with the
 * visitor's token, language, zone and address, so the API's checks are the same as the browser's.
 * Anything short of a clean render answers with the plain page (index.html), as before.
 */

/** A render that takes longer than this is abandoned for the plain page. */
const RENDER_TIMEOUT_MS = 5000;
/** What a phone is rendered as when its width is not known yet (a client hint says "mobile"). */
const PHONE_WIDTH = 390;
const DESKTOP_WIDTH = 1440;

export interface SsrPages {
  /** The rendered page, or null: send the plain one. */
  render(req: FastifyRequest): Promise<string | null>;
  /** Loads the renderer now (the server calls it when the portal is first used), not on a visitor's page request. */
  warm(): void;
  /** Whether the renderer was asked to load (warmed or used). */
  loaded(): boolean;
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The values of an Accept-* header, lower-cased, best first (by q, then in the order given); a value
 * with q=0 is refused and left out.
 */
function weighted(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, i) => {
      const [value, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { value: value.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((t) => t.value && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((t) => t.value);
}

/** The browser's rule (apps/web lib/i18n.ts initialLanguage): the mp_lang cookie, else Accept-Language in q order, else en. */
export function pageLanguage(cookieValue: string | undefined, acceptLanguage: string | undefined): Language {
  if (LANGUAGES.includes(cookieValue as Language)) return cookieValue as Language;
  for (const tag of weighted(acceptLanguage)) {
    const base = tag.split('-')[0] as Language;
    if (LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

const validZone = (z: string | undefined): z is string => {
  if (!z || z.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(z)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: z });
    return true;
  } catch {
    return false;
  }
};

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The encoding a rendered page goes in: br, else gzip, as Accept-Encoding allows (q=0 refuses one). */
export function pageEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const allowed = weighted(acceptEncoding);
  return allowed.includes('br') ? 'br' : allowed.includes('gzip') ? 'gzip' : null;
}

/**
 * A rendered page compressed as the API's answers are (@fastify/compress compresses routes only,
 * and pages are sent by the not-found handler): ~115 KB of list becomes ~19 KB with brotli.
 */
export async function compressPage(page: string, acceptEncoding: string | undefined): Promise<{ body: Buffer | string; encoding: 'br' | 'gzip' | null }> {
  const encoding = pageEncoding(acceptEncoding);
  if (encoding === 'br') return { body: await brotli(page, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }), encoding };
  if (encoding === 'gzip') return { body: await gzip(page), encoding };
  return { body: page, encoding };
}

/** `<`, `>`, `&` and the line separators escaped: the state is JSON inside a <script type="application/json">. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  css?: string[];
  assets?: string[];
  imports?: string[];
  isDynamicEntry?: boolean;
}

/**
 * The page around the markup: index.html with antd's stylesheet first (decision 031; the browser
 * prepends it at run time), then the app's own, then the stylesheets of the shell and the screens
 * (a few KB in all), so the markup is styled from the first paint. No script in the head and none
 * preloaded: the first paint needs none, and scripts fetched early share a slow line with the
 * stylesheets (issue 30). public/ssr-boot.js loads the entry once the page has painted.
 */
function pageTemplate(dist: string): { head: string; before: string; after: string } | null {
  const index = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const manifestFile = path.join(dist, '.vite/manifest.json');
  if (!fs.existsSync(manifestFile)) return null;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const antd = Object.values(manifest)
    .find((c) => c.name === '_virtual_antd-styles')
    ?.assets?.find((a) => a.endsWith('.css'));
  if (!antd) return null;
  const css = new Set<string>();
  const seen = new Set<string>();
  const walk = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const c = manifest[key];
    if (!c) return;
    for (const f of c.css ?? []) css.add(f);
    for (const i of c.imports ?? []) walk(i);
  };
  for (const [key, c] of Object.entries(manifest)) {
    if (!c.isDynamicEntry || !c.src?.startsWith('src/')) continue;
    // Not the pages that are never rendered here (their own, lighter styles).
    if (/src\/(features\/(auth|phone|ops|checkout)|checkout)\//.test(c.src)) continue;
    walk(key);
  }
  const mainCss = new Set(manifest['index.html']?.css ?? []);
  const links = [...css]
    .filter((f) => !mainCss.has(f))
    .map((f) => `<link rel="stylesheet" href="/${f}">`)
    .join('');
  const headOpen = index.indexOf('<head>') + '<head>'.length;
  const headClose = index.indexOf('</head>');
  const rootTag = '<div id="root"></div>';
  const at = index.indexOf(rootTag);
  if (headOpen < 6 || headClose < 0 || at < 0) return null;
  // The entry script and its preloads leave the head: ssr-boot.js loads the entry after the first paint.
  const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(index);
  if (!entry || !fs.existsSync(path.join(dist, 'ssr-boot.js'))) return null;
  const head = index
    .slice(headOpen, headClose)
    .replace(/<title>[^<]*<\/title>/, '')
    .replace(entry[0], '')
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
  return {
    head: `<link rel="stylesheet" href="/${antd}">${head}${links}`,
    before: index.slice(headClose, at),
    after: `<script defer src="/ssr-boot.js" data-main="${entry[1]}"></script>${index.slice(at + rootTag.length)}`,
  };
}

export function ssrPages(app: FastifyInstance, dist: string, enabled: boolean): SsrPages | null {
  const bundle = path.resolve(dist, '../dist-ssr/entry-server.js');
  if (!enabled || !fs.existsSync(bundle) || !fs.existsSync(path.join(dist, 'index.html'))) return null;
  const template = pageTemplate(dist);
  if (!template) return null;
  let loading: Promise<Renderer | null> | null = null;
  const renderer = () =>
    (loading ??= (import(/* @vite-ignore */ pathToFileURL(bundle).href) as Promise<Renderer>).catch((err: unknown) => {
      app.log.warn({ err }, 'ssr: the renderer did not load; pages are sent plain');
      return null;
    }));
  return {
    warm() {
      void renderer();
    },
    loaded: () => loading !== null,
    async render(req) {
      const url = req.url;
      const pathname = url.split('?')[0];
      const cookies = req.headers.cookie ?? '';
      if (!cookie(cookies, 'mp_token')) return null;
      const zone = cookie(cookies, 'mp_tz');
      if (!validZone(zone)) return null;
      const r = await renderer();
      if (!r || !r.RENDERED_PATHS.includes(pathname)) return null;
      const vw = Number(cookie(cookies, 'mp_vw'));
      const width = Number.isInteger(vw) && vw >= 200 && vw <= 10000 ? vw : req.headers['sec-ch-ua-mobile'] === '?1' ? PHONE_WIDTH : DESKTOP_WIDTH;
      const language = pageLanguage(cookie(cookies, 'mp_lang'), req.headers['accept-language']);
      const forward: Record<string, string> = {};
      for (const h of ['user-agent', 'x-forwarded-for', 'x-forwarded-proto', 'x-real-ip'] as const) {
        const v = req.headers[h];
        if (typeof v === 'string') forward[h] = v;
      }
      const transport: typeof fetch = async (input, init) => {
        const headers: Record<string, string> = { ...forward };
        new Headers(init?.headers).forEach((v, k) => {
          headers[k] = v;
        });
        const res = await app.inject({
          method: (init?.method ?? 'GET') as 'GET',
          url: String(input),
          headers,
          payload: typeof init?.body === 'string' ? init.body : undefined,
          remoteAddress: req.socket.remoteAddress,
        });
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
        return new Response([101, 204, 205, 304].includes(res.statusCode) ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: out });
      };
      let timer: NodeJS.Timeout | undefined;
      try {
        const result = await Promise.race([
          r.renderPage({ url, cookies, language, zone, width, transport }),
          new Promise<RenderResult>((resolve) => {
            timer = setTimeout(() => resolve({ ok: false, reason: 'timed out' }), RENDER_TIMEOUT_MS);
          }),
        ]);
        if (!result.ok) {
          req.log.info({ reason: result.reason }, 'ssr: plain page');
          return null;
        }
        return (
          `<!doctype html><html lang="${result.lang}"><head>${result.styles}${template.head}<title>${result.title}</title>${template.before}` +
          `<div id="root" class="ssr-pending" inert aria-busy="true" aria-disabled="true">${result.html}</div>` +
          `<script type="application/json" id="ssr-state">${jsonForHtml(result.state)}</script>${template.after}`
        );
      } catch (err) {
        req.log.warn({ err }, 'ssr: the render failed; the plain page is sent');
        return null;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
